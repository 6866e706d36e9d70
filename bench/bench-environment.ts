import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '@directory/config';
import { createDatabase, migrateToLatest, type Database } from '@directory/database';
import { createSearchClient, type SearchClient } from '@directory/search-index';
import { withAdmin, withDatabase } from '@directory/testing';

/**
 * A throw-away database, Redis prefix and index alias for one benchmark run, removed afterwards, so a
 * benchmark never touches the demo or development data.
 */
export type BenchEnvironment = {
  config: Config;
  db: Database;
  databaseUrl: string;
  client: SearchClient;
  alias: string;
  redisPrefix: string;
  cleanup: () => Promise<void>;
};

export async function createBenchEnvironment(name: string): Promise<BenchEnvironment> {
  const config = loadConfig();
  const suffix = randomBytes(4).toString('hex');
  const databaseName = `bench_${name}_${suffix}`;
  await withAdmin((admin) => admin.query(`create database "${databaseName}"`));
  const databaseUrl = withDatabase(config.DATABASE_URL, databaseName);
  // A benchmark shares the machine with whatever else runs: a slow connect is waited for, not a failure.
  // Its own seeding statements touch every row (a million at the reindex bench's default), far beyond the
  // services' 60 s statement timeout; the processes under test keep their own configured timeouts.
  const db = createDatabase(databaseUrl, {
    maxConnections: 10,
    timeouts: { connectTimeoutMs: 30_000, statementTimeoutMs: 30 * 60_000 },
  });
  await migrateToLatest(db);
  const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs: 120_000, maxRetries: 3 });
  const alias = `bench_${name}_${suffix}`;
  return {
    config,
    db,
    databaseUrl,
    client,
    alias,
    redisPrefix: `bench-${name}-${suffix}`,
    cleanup: async () => {
      await client.indices.delete({ index: `${alias}*`, expand_wildcards: 'all' }, { ignore: [404] });
      await client.close();
      await db.destroy();
      await withAdmin((admin) => admin.query(`drop database if exists "${databaseName}" with (force)`));
    },
  };
}

export function percentile(sortedValues: ReadonlyArray<number>, fraction: number): number {
  if (sortedValues.length === 0) return 0;
  const index = Math.min(sortedValues.length - 1, Math.ceil(fraction * sortedValues.length) - 1);
  return sortedValues[Math.max(0, index)] ?? 0;
}

export function log(line: string): void {
  process.stderr.write(`${line}\n`);
}
