// `npm run bench:ingest-soak [-- --events N --seed S]`: the memory of a long `ingest --wait` (a backfill).
// N events (5,000,000 unless given) are written to a gzipped NDJSON file as they are generated, then the
// real `ingest - --wait` producer (reading `gunzip -c FILE`) and one real worker process run against a
// throw-away environment while this process samples both processes' RSS every second from /proc. Memory
// bounded by the batch shows as a flat curve: the growth (last decile of progress minus the second) near
// zero, whatever N. The two processes run as production runs them, from the compiled build (the npm
// script builds first and sets DIRECTORY_PROCESSES=compiled): run from source, each also holds tsx's
// compiler and source maps.
// `--postgres private --pg-preset defaults|tuned` runs the store on a private, durable cluster with the
// preset's settings (bench/pg-preset.ts), and each tenth of the run also prints what the store cost
// PostgreSQL: WAL bytes and full-page images per event, checkpoints, blocks read from outside
// shared_buffers, autovacuums and CPU seconds per process, which show why the ingest slows as it grows.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { sql } from 'kysely';
import { createRedisClient } from '@directory/config';
import { createIngestQueue } from '@directory/ingest';
import { generateEvents } from '@directory/sample-data';
import { processMemoryKilobytes } from '@directory/observability';
import { ensureDoctorsIndex } from '@directory/search-index';
import { processModeOf, startProcess } from '@directory/testing';
import { createBenchEnvironment, log } from './bench-environment.js';
import { cpuBetween, NO_CPU, processCpuSeconds, snapshotCpu, type CpuSnapshot } from './cpu-usage.js';
import { parseRedisInfo } from './machine.js';
import { POSTGRES_OPTIONS, useBenchPostgres } from './bench-postgres.js';
import { formatStoreFigures, storeFiguresByDecile, type StoreSample } from './store-growth-figures.js';

const SAMPLE_INTERVAL_MS = 1_000;

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000000' },
    seed: { type: 'string', default: '1' },
    ...POSTGRES_OPTIONS,
  },
});
const events = Number(values.events);
const seed = Number(values.seed);
if (!Number.isInteger(events) || events <= 0) throw new Error('--events must be a positive integer');

/** One process's resident set (VmRSS) and its peak so far (VmHWM), in MB; undefined once it has exited. */
function readRss(pid: number): { rss: number; hwm: number } | undefined {
  const rss = processMemoryKilobytes(pid, 'VmRSS');
  const hwm = processMemoryKilobytes(pid, 'VmHWM');
  return rss !== undefined && hwm !== undefined ? { rss: rss / 1024, hwm: hwm / 1024 } : undefined;
}

type Sample = { seconds: number; stored: number; producer?: number; worker?: number; redis?: number };

/** Redis's memory in use (`used_memory`), in MB: the run's jobs, beside whatever else the server holds. */
async function readRedisMemory(redis: ReturnType<typeof createRedisClient>): Promise<number | undefined> {
  const used = Number(parseRedisInfo(await redis.info('memory')).get('used_memory'));
  return Number.isFinite(used) ? used / 1024 / 1024 : undefined;
}

/** The highest RSS of each tenth of the progress (events stored out of all stored at the end). */
function rssByDecile(
  samples: ReadonlyArray<Sample>,
  finalStored: number,
  key: 'producer' | 'worker' | 'redis',
) {
  const deciles: Array<number | undefined> = Array.from({ length: 10 }, () => undefined);
  for (const sample of samples) {
    const value = sample[key];
    if (value === undefined) continue;
    const decile = Math.min(9, Math.floor((sample.stored / Math.max(finalStored, 1)) * 10));
    deciles[decile] = Math.max(deciles[decile] ?? 0, value);
  }
  return deciles;
}

const mb = (value: number | undefined) => (value === undefined ? '   -' : value.toFixed(0).padStart(4));

// The store's cumulative counters in one statement (stats views and an index lookup: cheap at any size).
// pg_stat_wal and pg_stat_bgwriter are the whole cluster's: only a private cluster's are the run's alone.
const STORE_COUNTERS = sql<{
  stored: string | null;
  wal_bytes: string;
  wal_fpi: string;
  checkpoints: string;
  backend_writes: string;
  blocks_read: string | null;
  blocks_hit: string | null;
  autovacuums: string | null;
}>`
  select (select max(position) from events) as stored,
         w.wal_bytes::text as wal_bytes, w.wal_fpi::text as wal_fpi,
         (b.checkpoints_timed + b.checkpoints_req)::text as checkpoints,
         b.buffers_backend::text as backend_writes,
         (select sum(coalesce(heap_blks_read, 0) + coalesce(idx_blks_read, 0))
            from pg_statio_user_tables where relname in ('events', 'places'))::text as blocks_read,
         (select sum(coalesce(heap_blks_hit, 0) + coalesce(idx_blks_hit, 0))
            from pg_statio_user_tables where relname in ('events', 'places'))::text as blocks_hit,
         (select sum(autovacuum_count + autoanalyze_count)
            from pg_stat_user_tables where relname in ('events', 'places'))::text as autovacuums
    from pg_stat_wal w, pg_stat_bgwriter b`;

const CPU_PARTS = ['producer', 'worker', 'postgresql', 'redis', 'elasticsearch'] as const;
type CpuMark = { seconds: number; stored: number; cpu: CpuSnapshot | undefined; producer?: number };

/** CPU seconds per part between two marks, per 1,000 events stored, and the machine's iowait. */
function cpuLine(before: CpuMark, after: CpuMark): string {
  const events = Math.max(1, after.stored - before.stored);
  const usage = before.cpu && after.cpu ? cpuBetween(before.cpu, after.cpu) : NO_CPU;
  const byPart = new Map(usage.byPart);
  if (before.producer !== undefined && after.producer !== undefined) {
    byPart.set('producer', after.producer - before.producer);
  }
  const parts = CPU_PARTS.map((part) => `${part} ${(((byPart.get(part) ?? 0) / events) * 1000).toFixed(2)}`);
  const { iowaitSeconds: iowait, busySeconds: busy } = usage;
  const wall = Math.max(after.seconds - before.seconds, 1e-9);
  return (
    `         cpu s per 1,000 events: ${parts.join(' · ')} · machine busy ${(busy / wall).toFixed(2)} ` +
    `cores, iowait ${(iowait / wall).toFixed(2)} cores`
  );
}

// The environment (its database, the worker and the producer) follows DATABASE_URL to a private cluster.
const postgres = await useBenchPostgres('ingest-soak', values);

const directory = await mkdtemp(join(tmpdir(), 'ingest-soak-'));
const environment = await createBenchEnvironment('soak');
const { db, client } = environment;
const redis = createRedisClient(environment.config, 'probe', { timeoutMs: 5_000 });
try {
  // Streamed to disk as generated, with back-pressure: this process stays flat too. Compressed (a
  // gigabyte of NDJSON a million events would be 20 GB at 20 million, beside the store it fills); the
  // producer reads it through `gunzip -c` on its stdin, as an operator pipes a compressed dump.
  const file = join(directory, 'events.ndjson.gz');
  const processes = processModeOf() === 'compiled' ? 'the build' : 'source';
  log(`writing ${events} events (seed ${seed}) to ${file}; processes from ${processes}`);
  const gzip = createGzip({ level: 1 });
  const written = pipeline(gzip, createWriteStream(file));
  for (const event of generateEvents({ count: events, seed })) {
    if (!gzip.write(`${JSON.stringify(event)}\n`)) await once(gzip, 'drain');
  }
  gzip.end();
  await written;

  // What the server really runs with, read back from it (a setting it refused would show here).
  const running = await sql<{ name: string; setting: string }>`
    select name, current_setting(name) as setting from pg_settings
     where name in ('fsync', 'synchronous_commit', 'full_page_writes', 'shared_buffers', 'max_wal_size',
                    'checkpoint_timeout', 'wal_compression', 'effective_cache_size', 'autovacuum')
     order by name`.execute(db);
  log(
    `PostgreSQL (${values.postgres}) runs with: ` +
      running.rows.map((row) => `${row.name}=${row.setting}`).join(', '),
  );
  const readCounters = async (seconds: number): Promise<StoreSample> => {
    const row = (await STORE_COUNTERS.execute(db)).rows[0];
    return {
      seconds,
      stored: Number(row?.stored ?? 0),
      walBytes: Number(row?.wal_bytes ?? 0),
      walFpi: Number(row?.wal_fpi ?? 0),
      checkpoints: Number(row?.checkpoints ?? 0),
      backendWrites: Number(row?.backend_writes ?? 0),
      blocksRead: Number(row?.blocks_read ?? 0),
      blocksHit: Number(row?.blocks_hit ?? 0),
      autovacuums: Number(row?.autovacuums ?? 0),
    };
  };

  await ensureDoctorsIndex(client, environment.alias);
  const env = {
    DATABASE_URL: environment.databaseUrl,
    REDIS_PREFIX: environment.redisPrefix,
    ELASTICSEARCH_INDEX: environment.alias,
    LOG_LEVEL: 'info',
  };
  const worker = startProcess('services/worker/src/main.ts', [], env);
  await worker.waitForOutput(/worker started/);
  await environment.settle();

  const baseline = await readCounters(0);
  const started = performance.now();
  const gunzip = spawn('gunzip', ['-c', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const gunzipExited = once(gunzip, 'exit') as Promise<[number | null]>;
  const producer = startProcess(
    'packages/ingest/src/ingest.cli.ts',
    ['-', '--wait', '--timeout', '86400'],
    env,
    {
      stdin: gunzip.stdout,
    },
  );
  const producerPid = producer.child.pid;
  const workerPid = worker.child.pid;
  if (producerPid === undefined || workerPid === undefined) throw new Error('a process did not start');

  const samples: Sample[] = [];
  const storeSamples: StoreSample[] = [];
  let lastMark: CpuMark = { seconds: 0, stored: 0, cpu: snapshotCpu([workerPid]), producer: 0 };
  // Redis before the run: the run's own share is what it holds above this.
  const redisBefore = (await readRedisMemory(redis)) ?? 0;
  const peaks = { producer: 0, worker: 0, redis: 0 };
  let producerDone = false;
  void producer.exited.then(() => (producerDone = true));
  let nextReport = 0.1;
  while (!producerDone) {
    const seconds = (performance.now() - started) / 1000;
    const producerRss = readRss(producerPid);
    const workerRss = readRss(workerPid);
    const [redisUsed, counters] = await Promise.all([
      readRedisMemory(redis),
      // The store's position counts events stored, beside PostgreSQL's counters.
      readCounters(seconds),
    ]);
    storeSamples.push(counters);
    if (producerRss) peaks.producer = Math.max(peaks.producer, producerRss.hwm);
    if (workerRss) peaks.worker = Math.max(peaks.worker, workerRss.hwm);
    const redisRun = redisUsed === undefined ? undefined : Math.max(0, redisUsed - redisBefore);
    if (redisRun !== undefined) peaks.redis = Math.max(peaks.redis, redisRun);
    const sample: Sample = {
      seconds,
      stored: counters.stored,
      producer: producerRss?.rss,
      worker: workerRss?.rss,
      redis: redisRun,
    };
    samples.push(sample);
    if (sample.stored / events >= nextReport) {
      log(
        `${sample.seconds.toFixed(0).padStart(5)} s  stored ${sample.stored}  producer ${mb(sample.producer)} MB  ` +
          `worker ${mb(sample.worker)} MB  redis ${mb(sample.redis)} MB`,
      );
      const mark: CpuMark = {
        seconds: sample.seconds,
        stored: sample.stored,
        cpu: snapshotCpu([workerPid]),
        producer: processCpuSeconds(producerPid),
      };
      log(cpuLine(lastMark, mark));
      lastMark = mark;
      nextReport = Math.floor((sample.stored / events) * 10 + 1) / 10;
    }
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_INTERVAL_MS));
  }
  const code = await producer.exited;
  const seconds = (performance.now() - started) / 1000;
  const finalRss = readRss(workerPid);
  if (finalRss) peaks.worker = Math.max(peaks.worker, finalRss.hwm);
  const producerOutput = producer.output();
  await worker.stop('SIGTERM');
  if (code !== 0) throw new Error(`ingest --wait exited ${code}:\n${producerOutput.slice(-4_000)}`);
  const [gunzipCode] = await gunzipExited;
  if (gunzipCode !== 0)
    throw new Error(`gunzip -c ${file} exited ${gunzipCode}: the producer read a part only`);
  log(producerOutput.trim().split('\n').at(-1) ?? '');

  const finalCounters = await readCounters(seconds);
  const finalStored = finalCounters.stored;
  storeSamples.push(finalCounters);
  const storeFigures = storeFiguresByDecile(baseline, storeSamples, finalStored);
  log(`PostgreSQL per tenth of the events stored (${values.postgres} server, preset ${postgres.label}):`);
  for (const line of formatStoreFigures(storeFigures)) log(line);
  const sizes = await sql<{ relation: string; mb: string; blocks_read: string | null }>`
    select c.relname as relation, (pg_relation_size(c.oid) / 1048576)::text as mb,
           coalesce(s.idx_blks_read, t.heap_blks_read)::text as blocks_read
      from pg_class c
      left join pg_statio_user_indexes s on s.indexrelid = c.oid
      left join pg_statio_user_tables t on t.relid = c.oid
     where c.oid in (select relid from pg_statio_user_tables where relname in ('events', 'places'))
        or c.oid in (select indexrelid from pg_statio_user_indexes where relname in ('events', 'places'))
     order by pg_relation_size(c.oid) desc`.execute(db);
  log(
    'sizes (MB) and blocks read from outside shared_buffers: ' +
      sizes.rows.map((row) => `${row.relation} ${row.mb} MB / ${row.blocks_read ?? 0}`).join(', '),
  );
  const databaseMb = Number(
    (
      await sql<{ mb: string }>`select (pg_database_size(current_database()) / 1048576)::text as mb`.execute(
        db,
      )
    ).rows[0]?.mb ?? 0,
  );
  log(
    `database ${databaseMb} MB; WAL written ${((finalCounters.walBytes - baseline.walBytes) / 1048576) | 0} MB`,
  );
  const producerCurve = rssByDecile(samples, finalStored, 'producer');
  const workerCurve = rssByDecile(samples, finalStored, 'worker');
  const redisCurve = rssByDecile(samples, finalStored, 'redis');
  log('RSS (MB, highest sample in each tenth of the events stored):');
  log(`  progress  ${producerCurve.map((_, index) => `${(index + 1) * 10}%`.padStart(5)).join('')}`);
  log(`  producer  ${producerCurve.map((value) => ` ${mb(value)}`).join('')}`);
  log(`  worker    ${workerCurve.map((value) => ` ${mb(value)}`).join('')}`);
  log(
    `  redis     ${redisCurve.map((value) => ` ${mb(value)}`).join('')} (the run's jobs: used_memory above the start)`,
  );
  const growth = (curve: Array<number | undefined>) => (curve[9] ?? 0) - (curve[1] ?? 0);
  const eventsPerSecond = events / seconds;
  log(
    `${events} events in ${seconds.toFixed(1)} s = ${eventsPerSecond.toFixed(0)} events/s; ` +
      `peak RSS (VmHWM) producer ${peaks.producer.toFixed(0)} MB, worker ${peaks.worker.toFixed(0)} MB; ` +
      `Redis held at most ${peaks.redis.toFixed(0)} MB for the run`,
  );
  console.log(
    JSON.stringify({
      bench: 'ingest-soak',
      events,
      events_per_s: Math.round(eventsPerSecond),
      producer_rss_mb: Math.round(peaks.producer),
      worker_rss_mb: Math.round(peaks.worker),
      producer_rss_growth_mb: Math.round(growth(producerCurve)),
      worker_rss_growth_mb: Math.round(growth(workerCurve)),
      redis_mb: Math.round(peaks.redis),
      postgres: values.postgres,
      pg_preset: postgres.label,
      database_mb: databaseMb,
      events_per_s_first_decile: Math.round(storeFigures[0]?.eventsPerSecond ?? 0),
      events_per_s_last_decile: Math.round(storeFigures.at(-1)?.eventsPerSecond ?? 0),
      wal_bytes_per_event_first: Math.round(storeFigures[0]?.walBytesPerEvent ?? 0),
      wal_bytes_per_event_last: Math.round(storeFigures.at(-1)?.walBytesPerEvent ?? 0),
      fpi_per_event_first: Number((storeFigures[0]?.fpiPerEvent ?? 0).toFixed(3)),
      fpi_per_event_last: Number((storeFigures.at(-1)?.fpiPerEvent ?? 0).toFixed(3)),
      checkpoints: finalCounters.checkpoints - baseline.checkpoints,
    }),
  );
} finally {
  // Each step runs even if one before failed: the events file and a private cluster take gigabytes.
  const step = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      log(`cleanup: ${what} failed: ${String(error)}`);
    }
  };
  // The run's jobs (completed ones are kept a while, each a batch of events) leave Redis with it.
  await step('removing the queue', async () => {
    const queue = createIngestQueue(environment.queue);
    await queue.obliterate({ force: true });
    await queue.close();
  });
  redis.disconnect();
  await step('removing the environment', () => environment.cleanup());
  await step('removing the events file', () => rm(directory, { recursive: true, force: true }));
  await step('removing the private cluster', () => postgres.destroy());
}
