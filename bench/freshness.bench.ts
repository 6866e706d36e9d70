// `npm run bench:freshness [-- --seconds 60 --rate 2]`: how long after `ingest` accepts an event the API
// returns it in a search, measured per event while the API serves searches; against the index's refresh
// interval, the floor any index-then-search path has.
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { QueueEvents } from 'bullmq';
import { createIngestQueue, INGEST_QUEUE_NAME, produceFromNdjson, waitForJobs } from '@directory/ingest';
import { createApiKey, ensureAccount } from '@directory/keys';
import { ensureDoctorsIndex } from '@directory/search-index';
import { crawled, freePort, published, startProcess, UNLIMITED_QUOTAS } from '@directory/testing';
import { createBenchEnvironment, log, percentile } from './bench-environment.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '2' },
    places: { type: 'string', default: '500' },
  },
});
const seconds = Number(values.seconds);
const rate = Number(values.rate);
const placeCount = Number(values.places);
if (!(seconds > 0) || !(rate > 0) || !Number.isInteger(placeCount) || placeCount <= 0) {
  throw new Error('--seconds and --rate must be positive, --places a positive integer');
}

const POLL_MS = 25;
const GIVE_UP_MS = 30_000;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A word no other record holds, so a search for it finds exactly the renamed place once it is searchable. */
function uniqueWord(n: number): string {
  let word = '';
  for (let value = n; word.length < 6; value = Math.floor(value / 26)) word += LETTERS[value % 26];
  return `fresh${word}`;
}

const environment = await createBenchEnvironment('freshness');
const { config, client } = environment;
try {
  await ensureDoctorsIndex(client, environment.alias);
  const connection = { url: config.REDIS_URL };
  const queue = createIngestQueue({ connection, prefix: environment.redisPrefix });
  const queueEvents = new QueueEvents(INGEST_QUEUE_NAME, { connection, prefix: environment.redisPrefix });
  await queueEvents.waitUntilReady();
  const ingest = (events: ReadonlyArray<unknown>) =>
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
    LOG_LEVEL: 'warn',
    // The benchmark's polling is the load; the quotas are not what it measures.
    ...UNLIMITED_QUOTAS,
  };
  const port = await freePort();
  const worker = startProcess('services/worker/src/main.ts', [], { ...env, LOG_LEVEL: 'info' });
  const api = startProcess('services/api/src/server.ts', [], {
    ...env,
    LOG_LEVEL: 'info',
    API_PORT: String(port),
  });
  await Promise.all([worker.waitForOutput(/worker started/), api.waitForOutput(/Server listening/)]);
  const account = await ensureAccount(environment.db, 'bench@example.com');
  const { secret } = await createApiKey(environment.db, { accountId: account.id, name: 'bench' });
  const base = `http://127.0.0.1:${port}/api/v1/doctors?country=de&city=berlin`;
  const searchIds = async (query: string): Promise<string[]> => {
    const response = await fetch(`${base}${query}`, { headers: { 'x-api-key': secret } });
    if (response.status !== 200) throw new Error(`search answered ${response.status}`);
    const body = (await response.json()) as { doctors: Array<{ id: string }> };
    return body.doctors.map((doctor) => doctor.id);
  };

  log(`seeding ${placeCount} served places`);
  const seededAt = new Date().toISOString();
  const placeIds = Array.from({ length: placeCount }, (_, index) => `FRESH-${index}`);
  const seeded = await ingest(
    placeIds.flatMap((placeId) => [crawled(placeId, 1, seededAt), published(placeId, seededAt)]),
  );
  const seeding = await waitForJobs(queue, queueEvents, seeded.jobIds, { timeoutMs: 10 * 60_000 });
  if (seeding.failed.length > 0 || seeding.timedOut) throw new Error('seeding failed');

  // Background readers: the API keeps serving ordinary searches throughout.
  let measuring = true;
  let backgroundSearches = 0;
  const readers = Array.from({ length: 2 }, async () => {
    while (measuring) {
      await searchIds('&limit=20');
      backgroundSearches += 1;
    }
  });

  const total = Math.round(seconds * rate);
  log(`sending ${total} events, one at a time at ${rate}/s, for ${seconds} s`);
  const latencies: number[] = [];
  const misses: number[] = [];
  const started = performance.now();
  const measurements: Promise<void>[] = [];
  for (let n = 0; n < total; n += 1) {
    const due = started + (n * 1_000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const placeId = placeIds[n % placeIds.length] ?? '';
    const word = uniqueWord(n);
    const event = crawled(placeId, n + 2, new Date().toISOString(), { name: `Praxis ${word}` });
    await ingest([event]);
    const accepted = performance.now();
    measurements.push(
      (async () => {
        while (performance.now() - accepted < GIVE_UP_MS) {
          if ((await searchIds(`&q=${word}`)).includes(placeId)) {
            latencies.push(performance.now() - accepted);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
        misses.push(n);
      })(),
    );
  }
  await Promise.all(measurements);
  measuring = false;
  await Promise.all(readers);

  const settings = await client.indices.getSettings({ index: environment.alias, include_defaults: true });
  const indexSettings = Object.values(settings)[0];
  const refreshSetting =
    indexSettings?.settings?.index?.refresh_interval ??
    indexSettings?.defaults?.index?.refresh_interval ??
    '1s';
  const refreshMs = parseDuration(String(refreshSetting));

  await Promise.all([worker.stop('SIGTERM'), api.stop('SIGTERM')]);
  await queueEvents.close();
  await queue.obliterate({ force: true });
  await queue.close();

  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = Math.round(percentile(sorted, 0.5));
  const p99 = Math.round(percentile(sorted, 0.99));
  const max = Math.round(sorted.at(-1) ?? 0);
  log(
    `ours: ${sorted.length} events searchable, p50 ${p50} ms, p99 ${p99} ms, max ${max} ms; ${misses.length} not found within ${GIVE_UP_MS / 1000} s; ${backgroundSearches} background searches`,
  );
  log(`raw:  index refresh interval ${refreshMs} ms`);
  console.log(
    JSON.stringify({
      bench: 'freshness',
      ours: p99,
      raw: refreshMs,
      unit: 'ms',
      p50,
      p99,
      max,
      events: total,
      missed: misses.length,
      rate,
    }),
  );
} finally {
  await environment.cleanup();
}

function parseDuration(value: string): number {
  const match = /^(\d+)(ms|s|m)$/.exec(value);
  if (!match) return Number.NaN;
  const amount = Number(match[1]);
  return match[2] === 'ms' ? amount : match[2] === 's' ? amount * 1_000 : amount * 60_000;
}
