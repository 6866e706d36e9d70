import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { loadConfig, standaloneTarget, type Config } from '@directory/config';
import { createDatabase, migrateToLatest, type Database } from '@directory/database';
import type { QueueConnection } from '@directory/ingest';
import { createSearchClient, type SearchClient } from '@directory/search-index';
import { deleteKeysWithPrefix, eventually, startProcess, withAdmin, withDatabase } from '@directory/testing';

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
  /** BullMQ's options for this run's queues: REDIS_URL's server, under the run's prefix. */
  queue: QueueConnection;
  /** Lets the engines finish the work of what ran before; call it before each timed phase. */
  settle: () => Promise<void>;
  /** Closes the connections and leaves the database and the alias in place (`--keep`, `--store`). */
  release: () => Promise<void>;
  /** Removes what the run created (nothing of an existing store) and closes the connections. */
  cleanup: () => Promise<void>;
};

export async function createBenchEnvironment(
  name: string,
  options: { existing?: string } = {},
): Promise<BenchEnvironment> {
  const config = loadConfig();
  const suffix = randomBytes(4).toString('hex');
  // An existing store (a database and the alias of the same name, kept by an earlier run) is measured as
  // it is and left in place; otherwise the run's own are created and removed by `cleanup`.
  const databaseName = options.existing ?? `bench_${name}_${suffix}`;
  if (options.existing === undefined) {
    await withAdmin((admin) => admin.query(`create database "${databaseName}"`));
  }
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
  const alias = databaseName;
  const redisPrefix = `bench-${name}-${suffix}`;
  const release = async () => {
    await client.close();
    await db.destroy();
  };
  return {
    config,
    db,
    databaseUrl,
    client,
    alias,
    redisPrefix,
    queue: { connection: { url: standaloneTarget(config.REDIS_URL) }, prefix: redisPrefix },
    settle: () => settleEngines(db, client, alias),
    release,
    cleanup: async () => {
      if (options.existing !== undefined) return release();
      await client.indices.delete({ index: `${alias}*`, expand_wildcards: 'all' }, { ignore: [404] });
      // The queues are obliterated by the benches that make them; this takes the rest (the processes'
      // own keys under the run's prefix).
      const redis = new Redis(standaloneTarget(config.REDIS_URL), { maxRetriesPerRequest: null });
      try {
        await deleteKeysWithPrefix(redis, `${redisPrefix}:`);
      } finally {
        redis.disconnect();
      }
      await release();
      await withAdmin((admin) => admin.query(`drop database if exists "${databaseName}" with (force)`));
    },
  };
}

/**
 * The longest a settle waits for Elasticsearch's merges: beyond it the phase would not start settled.
 * The merges after a reindex of two million documents outlast a minute.
 */
const SETTLE_MERGES_TIMEOUT_MS = 15 * 60_000;

/**
 * Before a timed phase, lets PostgreSQL and Elasticsearch finish the work the previous one left them, so
 * no phase pays for another. With PostgreSQL's 128 MB of shared buffers, a phase that followed ours found
 * them full of ours' dirty pages and its backends wrote them out themselves, and the floor's time varied
 * widely from run to run (docs/benchmarks.md, Method). A CHECKPOINT writes them out first; Elasticsearch
 * flushes the bench's indices and finishes their merges.
 */
async function settleEngines(db: Database, client: SearchClient, alias: string): Promise<void> {
  try {
    await sql`checkpoint`.execute(db);
  } catch (error) {
    // CHECKPOINT needs a superuser or the pg_checkpoint role; without it the figures are noisier, not wrong.
    if ((error as { code?: string }).code !== '42501') throw error;
    log('settle: this database user may not CHECKPOINT (needs pg_checkpoint); going on without');
  }
  const indices = `${alias}*`;
  await client.indices.flush({ index: indices, expand_wildcards: 'all', wait_if_ongoing: true });
  await eventually(
    async () => {
      const stats = await client.indices.stats({ index: indices, metric: 'merge', expand_wildcards: 'all' });
      return (stats._all.total?.merges?.current ?? 0) === 0;
    },
    SETTLE_MERGES_TIMEOUT_MS,
    `Elasticsearch to finish merging ${indices}`,
  );
}

/** One measured phase: each request's latency in ms, and the phase's wall seconds. */
export type PhaseRun = { latencies: number[]; seconds: number };

/**
 * `concurrency` workers take the items in order until none is left; `work` sends an item's requests,
 * each one through `timed`, which records its latency.
 */
export async function runConcurrently<T>(
  items: ReadonlyArray<T>,
  concurrency: number,
  work: (item: T, timed: <R>(request: () => Promise<R>) => Promise<R>) => Promise<void>,
): Promise<PhaseRun> {
  const latencies: number[] = [];
  const timed = async <R>(request: () => Promise<R>): Promise<R> => {
    const began = performance.now();
    const result = await request();
    latencies.push(performance.now() - began);
    return result;
  };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++] as T, timed);
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

export function percentile(sortedValues: ReadonlyArray<number>, fraction: number): number {
  if (sortedValues.length === 0) return 0;
  const index = Math.min(sortedValues.length - 1, Math.ceil(fraction * sortedValues.length) - 1);
  return sortedValues[Math.max(0, index)] ?? 0;
}

export function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/**
 * Runs one of the bench's own measuring scripts in a process of its own (a fresh heap, not the
 * benchmark's) and returns the JSON of the last line it prints.
 */
export async function runMeasuringScript<T>(entry: string, args: string[]): Promise<T> {
  const script = startProcess(entry, args, {});
  const code = await script.exited;
  if (code !== 0) throw new Error(`${entry} exited ${code}:\n${script.output()}`);
  return JSON.parse(script.output().trim().split('\n').at(-1) ?? '') as T;
}
