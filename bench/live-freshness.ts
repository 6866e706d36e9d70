import { Readable } from 'node:stream';
import { QueueEvents } from 'bullmq';
import { createIngestQueue, INGEST_QUEUE_NAME, produceFromNdjson, waitForJobs } from '@directory/ingest';
import { createApiKey, ensureAccount } from '@directory/keys';
import { crawled, freePort, published, startProcess, UNLIMITED_QUOTAS } from '@directory/testing';
import { log, percentile, type BenchEnvironment } from './bench-environment.js';
import { stagesOf, type FoundEvent, type JobTimes } from './replay-figures.js';

// Freshness through the real pipeline: events go in through `ingest` (the queue), the worker process
// stores and indexes them, and the API process answers the searches that find them. Used by
// `bench:freshness` alone and by `bench:reindex --replay` while a replay runs.

/**
 * Each rename is searched for every 25 ms for its first 2 s (the goal's range, where resolution counts),
 * then every 250 ms: when freshness degrades, tens of renames wait at once, and polling all of them at
 * 40 a second would load the API, Elasticsearch and this process enough to degrade it further.
 */
export function pollDelayMs(waitedMs: number): number {
  return waitedMs < 2_000 ? 25 : 250;
}
export const GIVE_UP_MS = 30_000;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A word no other record holds, so a search for it finds exactly the renamed place once it is searchable. */
export function uniqueWord(n: number): string {
  let word = '';
  for (let value = n; word.length < 6; value = Math.floor(value / 26)) word += LETTERS[value % 26];
  return `fresh${word}`;
}

/** The worker and API processes of one bench environment, with served places of their own to rename. */
export type LivePipeline = {
  /** Ids of the places a search of Berlin's doctors returns (`query` is appended to it). */
  searchIds: (query: string) => Promise<string[]>;
  /** Sends events through `ingest`, as a producer does; resolves with their jobs once queued. */
  ingest: (events: ReadonlyArray<unknown>) => Promise<string[]>;
  /** When a job was queued, taken by the worker and finished (epoch ms), while the queue keeps it. */
  jobTimes: (jobId: string) => Promise<JobTimes | undefined>;
  placeIds: ReadonlyArray<string>;
  /** The worker's and the API's pids, for CPU lines. */
  pids: number[];
  /** Events sent so far by `measureFreshness` (each event's number makes its id and word unique). */
  sent: number;
  stop: () => Promise<void>;
};

/** Starts the worker and the API on the environment and seeds `places` served places through them. */
export async function startLivePipeline(
  environment: BenchEnvironment,
  places: number,
): Promise<LivePipeline> {
  const { config } = environment;
  const queue = createIngestQueue(environment.queue);
  const queueEvents = new QueueEvents(INGEST_QUEUE_NAME, environment.queue);
  await queueEvents.waitUntilReady();
  const produce = (events: ReadonlyArray<unknown>) =>
    produceFromNdjson({
      queue,
      input: Readable.from(events.map((event) => `${JSON.stringify(event)}\n`)),
      sourceName: 'bench',
      batchSize: config.INGEST_BATCH_SIZE,
    });

  const env = {
    DATABASE_URL: environment.databaseUrl,
    REDIS_PREFIX: environment.redisPrefix,
    ELASTICSEARCH_INDEX: environment.alias,
    LOG_LEVEL: 'info',
    // The benchmark's polling is the load; the quotas are not what it measures.
    ...UNLIMITED_QUOTAS,
  };
  const port = await freePort();
  const worker = startProcess('services/worker/src/main.ts', [], env);
  const api = startProcess('services/api/src/server.ts', [], { ...env, API_PORT: String(port) });
  await Promise.all([worker.waitForOutput(/worker started/), api.waitForOutput(/Server listening/)]);
  const account = await ensureAccount(environment.db, 'bench@example.com');
  const { secret } = await createApiKey(environment.db, { accountId: account.id, name: 'bench' });
  const base = `http://127.0.0.1:${port}/api/v1/doctors?country=de&city=berlin`;

  log(`seeding ${places} served places through the pipeline`);
  const seededAt = new Date().toISOString();
  const placeIds = Array.from({ length: places }, (_, index) => `FRESH-${index}`);
  const seeded = await produce(
    placeIds.flatMap((placeId) => [crawled(placeId, 1, seededAt), published(placeId, seededAt)]),
  );
  const seeding = await waitForJobs(queue, queueEvents, seeded.jobIds, { timeoutMs: 10 * 60_000 });
  if (seeding.failed.length > 0 || seeding.timedOut) throw new Error('seeding failed');

  return {
    searchIds: async (query) => {
      const response = await fetch(`${base}${query}`, { headers: { 'x-api-key': secret } });
      if (response.status !== 200) throw new Error(`search answered ${response.status}`);
      const body = (await response.json()) as { doctors: Array<{ id: string }> };
      return body.doctors.map((doctor) => doctor.id);
    },
    ingest: async (events) => (await produce(events)).jobIds,
    jobTimes: async (jobId) => {
      const job = await queue.getJob(jobId);
      if (job?.processedOn === undefined || job.finishedOn === undefined) return undefined;
      return { queuedAt: job.timestamp, startedAt: job.processedOn, finishedAt: job.finishedOn };
    },
    placeIds,
    pids: [worker.child.pid, api.child.pid].filter((pid): pid is number => pid !== undefined),
    sent: 0,
    stop: async () => {
      await Promise.all([worker.stop('SIGTERM'), api.stop('SIGTERM')]);
      await queueEvents.close();
      await queue.obliterate({ force: true });
      await queue.close();
    },
  };
}

export type FreshnessRun = {
  /** Milliseconds from `ingest` accepting each event to a search returning it, ascending. */
  latencies: number[];
  /** Each event found, in sending order. */
  found: FoundEvent[];
  /** Events no search returned within `GIVE_UP_MS`. */
  missed: number;
  events: number;
  backgroundSearches: number;
};

/**
 * Renames one seeded place at a time, `rate` a second, while `keepSending(sentThisRun)` holds, and polls
 * the API until each rename is searchable. `backgroundReaders` loops keep sending ordinary searches.
 */
export async function measureFreshness(
  pipeline: LivePipeline,
  options: { rate: number; keepSending: (sentThisRun: number) => boolean; backgroundReaders: number },
): Promise<FreshnessRun> {
  let measuring = true;
  let backgroundSearches = 0;
  const readers = Array.from({ length: options.backgroundReaders }, async () => {
    while (measuring) {
      await pipeline.searchIds('&limit=20');
      backgroundSearches += 1;
    }
  });

  const latencies: number[] = [];
  const found: FreshnessRun['found'] = [];
  // Each found event's job and the time it was found, to split its latency once the run is over.
  const foundJobs = new Map<FoundEvent, { jobId: string; foundAt: number }>();
  let missed = 0;
  const started = performance.now();
  const measurements: Promise<void>[] = [];
  for (let sent = 0; options.keepSending(sent); sent += 1) {
    const due = started + (sent * 1_000) / options.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const n = pipeline.sent++;
    const placeId = pipeline.placeIds[n % pipeline.placeIds.length] ?? '';
    const word = uniqueWord(n);
    // Version 1 is the seeding crawl: each rename is a later crawl of the place.
    const [jobId] = await pipeline.ingest([
      crawled(placeId, n + 2, new Date().toISOString(), { name: `Praxis ${word}` }),
    ]);
    const accepted = performance.now();
    measurements.push(
      (async () => {
        while (performance.now() - accepted < GIVE_UP_MS) {
          if ((await pipeline.searchIds(`&q=${word}`)).includes(placeId)) {
            const event = { acceptedAt: accepted, latencyMs: performance.now() - accepted };
            latencies.push(event.latencyMs);
            found.push(event);
            if (jobId !== undefined) foundJobs.set(event, { jobId, foundAt: Date.now() });
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, pollDelayMs(performance.now() - accepted)));
        }
        missed += 1;
      })(),
    );
  }
  await Promise.all(measurements);
  measuring = false;
  await Promise.all(readers);
  await Promise.all(
    [...foundJobs].map(async ([event, { jobId, foundAt }]) => {
      const times = await pipeline.jobTimes(jobId);
      if (times) event.stages = stagesOf(times, foundAt);
    }),
  );
  return {
    latencies: latencies.sort((a, b) => a - b),
    found: found.sort((a, b) => a.acceptedAt - b.acceptedAt),
    missed,
    events: measurements.length,
    backgroundSearches,
  };
}

/**
 * p50, p99 and max of a run, rounded to whole milliseconds. With `countMissed`, each event never found
 * counts as `GIVE_UP_MS` (a lower bound of its freshness), so many misses cannot flatter the p99.
 */
export function freshnessPercentiles(
  run: FreshnessRun,
  options: { countMissed: boolean } = { countMissed: false },
): { p50: number; p99: number; max: number } {
  const latencies = options.countMissed
    ? [...run.latencies, ...Array.from({ length: run.missed }, () => GIVE_UP_MS)]
    : run.latencies;
  return {
    p50: Math.round(percentile(latencies, 0.5)),
    p99: Math.round(percentile(latencies, 0.99)),
    max: Math.round(latencies.at(-1) ?? 0),
  };
}
