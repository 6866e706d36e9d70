// Which PostgreSQL a benchmark's store lives on: `--postgres shared` (the machine's server, as configured)
// or `--postgres private --pg-preset defaults|tuned` (a durable cluster of the run's own, started with the
// preset's settings and removed at the end, bench/pg-preset.ts). The bench's environment, and every process
// it starts, follows DATABASE_URL to the chosen server.
import { totalmem } from 'node:os';
import { postgresCommand, startPrivatePostgres } from '@directory/testing';
import { log } from './bench-environment.js';
import { formatSettings, isPgPreset, pgPreset, settingsArguments } from './pg-preset.js';

/** The options every bench that can choose its PostgreSQL declares (for node:util's parseArgs). */
export const POSTGRES_OPTIONS = {
  postgres: { type: 'string', default: 'shared' },
  'pg-preset': { type: 'string' },
  // Loads pg_stat_statements in the private cluster: `bench:scale` then prints the replay's and its
  // floor's statements by time.
  statements: { type: 'boolean', default: false },
} as const;

export type BenchPostgres = {
  /** `shared-server`, or the private cluster's preset. */
  label: string;
  /** Removes the private cluster and its data; nothing on the shared server. */
  destroy: () => Promise<void>;
  /** Stops the private cluster but keeps its data, and prints how to start it again (`--keep`). */
  keep: () => Promise<void>;
};

/** Checks the options and, for a private cluster, starts it and points DATABASE_URL at it. */
export async function useBenchPostgres(
  name: string,
  values: { postgres?: string; 'pg-preset'?: string; statements?: boolean },
): Promise<BenchPostgres> {
  const where = values.postgres ?? 'shared';
  if (where !== 'shared' && where !== 'private') throw new Error('--postgres must be shared or private');
  const presetName = values['pg-preset'] ?? 'defaults';
  if (!isPgPreset(presetName)) throw new Error('--pg-preset must be defaults or tuned');
  if (where === 'shared') {
    if (values['pg-preset'] !== undefined || values.statements) {
      throw new Error(
        '--pg-preset and --statements need --postgres private: the shared server keeps its own settings',
      );
    }
    return { label: 'shared-server', destroy: async () => {}, keep: async () => {} };
  }
  const settings = pgPreset(presetName, { memoryBytes: totalmem() });
  if (values.statements) {
    settings.push({
      name: 'shared_preload_libraries',
      value: 'pg_stat_statements',
      why: '--statements: time by statement',
    });
  }
  log(`private PostgreSQL cluster, preset ${presetName}:`);
  for (const line of formatSettings(settings)) log(line);
  const cluster = await startPrivatePostgres(name, { settings: settingsArguments(settings) });
  process.env.DATABASE_URL = cluster.url;
  return {
    label: presetName,
    destroy: () => cluster.destroy(),
    keep: async () => {
      await cluster.stop();
      const [command, args] = postgresCommand(cluster.dataDir, cluster.port, settingsArguments(settings));
      log(`kept the private cluster's data in ${cluster.dataDir}; start it again with:`);
      log(`  ${[command, ...args].join(' ')} &`);
    },
  };
}
