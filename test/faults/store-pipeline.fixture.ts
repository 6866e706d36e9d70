import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateEvents } from '@directory/sample-data';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  SITE_ORIGIN,
  startLoad,
  startProcess,
  type ConvergenceInput,
  type RunningProcess,
  type TestDatabase,
  type TestRedis,
  type TestSearch,
  UNLIMITED_QUOTAS,
  processEnvironment,
} from '@directory/testing';
import { createLoadKey, searchRequest, startService } from './service-processes.fixture.js';

/**
 * The ingestion pipeline of one fault spec on the shared servers: a database, Redis prefix and index of
 * its own, workers and the ingest CLI started as processes (as a user would), short timings so faults
 * play out in seconds. Only processes started here are ever killed.
 */
export type StorePipeline = {
  database: TestDatabase;
  redis: TestRedis;
  search: TestSearch;
  alias: string;
  env: Record<string, string>;
  startWorker: (extraEnv?: Record<string, string>) => Promise<RunningProcess>;
  /** Writes the lines to a file and runs `npm run ingest -- FILE …args`; resolves with the process. */
  ingest: (lines: ReadonlyArray<string>, args?: string[]) => Promise<RunningProcess>;
  /**
   * Starts `npm run api` (a key of its own, no rate limit in the way) and a steady search load on it;
   * `stop()` returns the tally for `assertNoServerErrors`. Cleanup stops the load if the test did not.
   */
  startSearchLoad: () => Promise<ReturnType<typeof startLoad>>;
  convergenceInput: (lines: Iterable<unknown>) => ConvergenceInput;
  cleanup: () => Promise<void>;
};

export async function startStorePipeline(
  label: string,
  env: Record<string, string> = {},
): Promise<StorePipeline> {
  const database = await createTestDatabase(label);
  const redis = createTestRedis(label);
  const search = createTestSearch(label);
  const alias = `${search.prefix}_doctors`;
  await ensureDoctorsIndex(search.client, alias);
  const workDir = await mkdtemp(join(tmpdir(), `${label}-`));
  const processes: RunningProcess[] = [];
  const loads: Array<ReturnType<typeof startLoad>> = [];
  const fullEnv = processEnvironment(
    { databaseUrl: database.url, redisPrefix: redis.prefix, alias },
    {
      WORKER_LOCK_DURATION_MS: '1000',
      SWEEP_INTERVAL_MS: '1000',
      SWEEP_GRACE_MS: '1000',
      INGEST_RETRY_DELAY_MS: '200',
      INGEST_RETRY_MAX_DELAY_MS: '2000',
      ...env,
    },
  );
  let files = 0;
  return {
    database,
    redis,
    search,
    alias,
    env: fullEnv,
    startWorker: async (extraEnv = {}) => {
      const worker = startProcess('services/worker/src/main.ts', [], { ...fullEnv, ...extraEnv });
      processes.push(worker);
      await worker.waitForOutput(/worker started/);
      return worker;
    },
    ingest: async (lines, args = []) => {
      files += 1;
      const file = join(workDir, `input-${files}.ndjson`);
      await writeFile(file, `${lines.join('\n')}\n`);
      const ingest = startProcess('packages/ingest/src/ingest.cli.ts', [file, ...args], fullEnv);
      processes.push(ingest);
      return ingest;
    },
    startSearchLoad: async () => {
      const api = await startService('api', { ...fullEnv, ...UNLIMITED_QUOTAS });
      processes.push(api.process);
      const load = startLoad(searchRequest(api.base, await createLoadKey(database.db)), {
        concurrency: 2,
        pauseMs: 20,
      });
      loads.push(load);
      return load;
    },
    convergenceInput: (lines) => ({
      db: database.db,
      search: { client: search.client, alias },
      siteOrigin: SITE_ORIGIN,
      lines,
    }),
    cleanup: async () => {
      await Promise.all(loads.map((load) => load.stop()));
      await Promise.all(processes.map((child) => child.stop('SIGKILL')));
      await redis.cleanup();
      await search.cleanup();
      await database.drop();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** Deterministic sample events as NDJSON lines (about 1% invalid, some duplicates). */
export function sampleLines(count: number, seed: number): string[] {
  return [...generateEvents({ count, seed })].map((event) => JSON.stringify(event));
}
