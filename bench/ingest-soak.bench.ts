// `npm run bench:ingest-soak [-- --events N --seed S]`: the memory of a long `ingest --wait` (a backfill).
// N events (5,000,000 unless given) are written to an NDJSON file as they are generated, then the real
// `ingest FILE --wait` producer and one real worker process run against a throw-away environment while
// this process samples both processes' RSS every second from /proc. Memory bounded by the batch shows as
// a flat curve: the growth (last decile of progress minus the second) near zero, whatever N. The two
// processes run as production runs them, from the compiled build (the npm script builds first and sets
// DIRECTORY_PROCESSES=compiled): run from source, each also holds tsx's compiler and source maps.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createRedisClient } from '@directory/config';
import { createIngestQueue } from '@directory/ingest';
import { generateEvents } from '@directory/sample-data';
import { ensureDoctorsIndex } from '@directory/search-index';
import { processModeOf, startProcess } from '@directory/testing';
import { createBenchEnvironment, log } from './bench-environment.js';
import { parseRedisInfo } from './machine.js';

const SAMPLE_INTERVAL_MS = 1_000;

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000000' },
    seed: { type: 'string', default: '1' },
  },
});
const events = Number(values.events);
const seed = Number(values.seed);
if (!Number.isInteger(events) || events <= 0) throw new Error('--events must be a positive integer');

/** One process's resident set (VmRSS) and its peak so far (VmHWM), in MB; undefined once it has exited. */
async function readRss(pid: number): Promise<{ rss: number; hwm: number } | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const rss = kilobytes('VmRSS');
    const hwm = kilobytes('VmHWM');
    return Number.isFinite(rss) && Number.isFinite(hwm) ? { rss: rss / 1024, hwm: hwm / 1024 } : undefined;
  } catch {
    return undefined;
  }
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

const directory = await mkdtemp(join(tmpdir(), 'ingest-soak-'));
const environment = await createBenchEnvironment('soak');
const { db, client } = environment;
const redis = createRedisClient(environment.config, 'probe', { timeoutMs: 5_000 });
try {
  // Streamed to disk as generated, with back-pressure: this process stays flat too.
  const file = join(directory, 'events.ndjson');
  const processes = processModeOf() === 'compiled' ? 'the build' : 'source';
  log(`writing ${events} events (seed ${seed}) to ${file}; processes from ${processes}`);
  const out = createWriteStream(file);
  for (const event of generateEvents({ count: events, seed })) {
    if (!out.write(`${JSON.stringify(event)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');

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

  const started = performance.now();
  const producer = startProcess(
    'packages/ingest/src/ingest.cli.ts',
    [file, '--wait', '--timeout', '86400'],
    env,
  );
  const producerPid = producer.child.pid;
  const workerPid = worker.child.pid;
  if (producerPid === undefined || workerPid === undefined) throw new Error('a process did not start');

  const samples: Sample[] = [];
  // Redis before the run: the run's own share is what it holds above this.
  const redisBefore = (await readRedisMemory(redis)) ?? 0;
  const peaks = { producer: 0, worker: 0, redis: 0 };
  let producerDone = false;
  void producer.exited.then(() => (producerDone = true));
  let nextReport = 0.1;
  while (!producerDone) {
    const [producerRss, workerRss, redisUsed, stored] = await Promise.all([
      readRss(producerPid),
      readRss(workerPid),
      readRedisMemory(redis),
      // The store's position counts events stored (an index lookup: cheap at any size).
      sql<{ position: string | null }>`select max(position) as position from events`.execute(db),
    ]);
    if (producerRss) peaks.producer = Math.max(peaks.producer, producerRss.hwm);
    if (workerRss) peaks.worker = Math.max(peaks.worker, workerRss.hwm);
    const redisRun = redisUsed === undefined ? undefined : Math.max(0, redisUsed - redisBefore);
    if (redisRun !== undefined) peaks.redis = Math.max(peaks.redis, redisRun);
    const sample: Sample = {
      seconds: (performance.now() - started) / 1000,
      stored: Number(stored.rows[0]?.position ?? 0),
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
      nextReport = Math.floor((sample.stored / events) * 10 + 1) / 10;
    }
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_INTERVAL_MS));
  }
  const code = await producer.exited;
  const seconds = (performance.now() - started) / 1000;
  const finalRss = await readRss(workerPid);
  if (finalRss) peaks.worker = Math.max(peaks.worker, finalRss.hwm);
  const producerOutput = producer.output();
  await worker.stop('SIGTERM');
  if (code !== 0) throw new Error(`ingest --wait exited ${code}:\n${producerOutput.slice(-4_000)}`);
  log(producerOutput.trim().split('\n').at(-1) ?? '');

  const finalStored = Number(
    (await sql<{ position: string | null }>`select max(position) as position from events`.execute(db)).rows[0]
      ?.position ?? 0,
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
    }),
  );
} finally {
  // The run's jobs (completed ones are kept a while, each a batch of events) leave Redis with it.
  const queue = createIngestQueue(environment.queue);
  await queue.obliterate({ force: true });
  await queue.close();
  redis.disconnect();
  await environment.cleanup();
  await rm(directory, { recursive: true, force: true });
}
