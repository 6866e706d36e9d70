// `npm run bench:webhooks [-- --changes 600 --rate 20 --places 100]`: how long after a change is made
// (its `changedAt`, the changing transaction's time) its signed webhook reaches a receiver, for changes
// written through the real pipeline (ingest → queue → worker → store) at a steady rate, the worker
// process dispatching and delivering as in production (receiver on loopback: WEBHOOK_ALLOW_LOOPBACK).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { QueueEvents } from 'bullmq';
import { createIngestQueue, INGEST_QUEUE_NAME, produceFromNdjson, waitForJobs } from '@directory/ingest';
import { createApiKey, ensureAccount } from '@directory/keys';
import { ensureDoctorsIndex } from '@directory/search-index';
import { crawled, published, startProcess } from '@directory/testing';
import { createEndpoint, webhookOptionsOf } from '@directory/webhooks';
import { createBenchEnvironment, log, percentile } from './bench-environment.js';

const { values } = parseArgs({
  options: {
    changes: { type: 'string', default: '600' },
    rate: { type: 'string', default: '20' },
    places: { type: 'string', default: '100' },
  },
});
const changeCount = Number(values.changes);
const rate = Number(values.rate);
const placeCount = Number(values.places);
if (
  !Number.isInteger(changeCount) ||
  changeCount <= 0 ||
  !(rate > 0) ||
  !Number.isInteger(placeCount) ||
  placeCount <= 0
) {
  throw new Error('--changes and --places must be positive integers, --rate positive');
}
const GIVE_UP_MS = 60_000;

const environment = await createBenchEnvironment('webhooks');
const { config, client } = environment;
try {
  await ensureDoctorsIndex(client, environment.alias);
  const queue = createIngestQueue(environment.queue);
  const queueEvents = new QueueEvents(INGEST_QUEUE_NAME, environment.queue);
  await queueEvents.waitUntilReady();
  const ingest = (events: ReadonlyArray<unknown>) =>
    produceFromNdjson({
      queue,
      input: Readable.from(events.map((event) => `${JSON.stringify(event)}\n`)),
      sourceName: 'bench',
      batchSize: config.INGEST_BATCH_SIZE,
    });

  // The receiver: when each webhook arrived, against when its change was made.
  const latencies: number[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const receivedAt = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        data: { id: string; version: number; changedAt: string };
      };
      const key = `${event.data.id}@${event.data.version}`;
      if (seen.has(key)) duplicates += 1;
      else {
        seen.add(key);
        latencies.push(receivedAt - Date.parse(event.data.changedAt));
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiver.address() as AddressInfo).port;

  const env = {
    DATABASE_URL: environment.databaseUrl,
    REDIS_PREFIX: environment.redisPrefix,
    ELASTICSEARCH_INDEX: environment.alias,
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
  };
  const worker = startProcess('services/worker/src/main.ts', [], { ...env, LOG_LEVEL: 'info' });
  await worker.waitForOutput(/worker started/);

  log(`seeding ${placeCount} served places`);
  const seededAt = new Date().toISOString();
  const placeIds = Array.from({ length: placeCount }, (_, index) => `HOOK-${index}`);
  const seeded = await ingest(
    placeIds.flatMap((placeId) => [crawled(placeId, 1, seededAt), published(placeId, seededAt)]),
  );
  const seeding = await waitForJobs(queue, queueEvents, seeded.jobIds, { timeoutMs: 10 * 60_000 });
  if (seeding.failed.length > 0 || seeding.timedOut) throw new Error('seeding failed');

  // Registered after the seeding: the endpoint gets the changes from now on.
  const account = await ensureAccount(environment.db, 'bench@example.com');
  // Webhooks go only to accounts holding an active live key.
  await createApiKey(environment.db, { accountId: account.id, name: 'bench-webhooks' });
  const endpoint = await createEndpoint(
    environment.db,
    { accountId: account.id, url: `http://127.0.0.1:${receiverPort}/hook`, countries: ['de'] },
    { ...webhookOptionsOf(config), allowLoopback: true },
  );
  if (!endpoint.ok) throw new Error(endpoint.error);

  log(`changing ${changeCount} places, one event at a time at ${rate}/s`);
  const started = performance.now();
  for (let n = 0; n < changeCount; n += 1) {
    const due = started + (n * 1_000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const placeId = placeIds[n % placeIds.length] ?? '';
    await ingest([crawled(placeId, n + 2, new Date().toISOString(), { name: `Praxis ${n}` })]);
  }
  const deadline = Date.now() + GIVE_UP_MS;
  while (seen.size < changeCount && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  await worker.stop('SIGTERM');
  await queueEvents.close();
  await queue.obliterate({ force: true });
  await queue.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));

  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = Math.round(percentile(sorted, 0.5));
  const p99 = Math.round(percentile(sorted, 0.99));
  const max = Math.round(sorted.at(-1) ?? 0);
  log(
    `${sorted.length} of ${changeCount} changes delivered (${duplicates} repeats): p50 ${p50} ms, p99 ${p99} ms, max ${max} ms from the change to the receiver (dispatcher poll ${config.WEBHOOK_POLL_MS} ms)`,
  );
  console.log(
    JSON.stringify({
      bench: 'webhooks',
      p50_ms: p50,
      p99_ms: p99,
      max_ms: max,
      changes: changeCount,
      delivered: sorted.length,
      duplicates,
      rate,
      poll_ms: config.WEBHOOK_POLL_MS,
    }),
  );
} finally {
  await environment.cleanup();
}
