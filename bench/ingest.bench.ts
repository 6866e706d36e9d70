// `npm run bench:ingest [-- --count N --seed S]`: end-to-end events/s through queue → store → index,
// against the raw Elasticsearch bulk rate of the same documents with the same mapping, in the same run.
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { QueueEvents } from 'bullmq';
import { createIngestQueue, INGEST_QUEUE_NAME, produceFromNdjson, waitForJobs } from '@directory/ingest';
import { generateEvents } from '@directory/sample-data';
import { createDoctorsIndex, ensureDoctorsIndex } from '@directory/search-index';
import { projectRawEvents, startProcess } from '@directory/testing';
import { createBenchEnvironment, log } from './bench-environment.js';
import { describeCpu, snapshotCpu } from './cpu-usage.js';

const WORKER_NODE_OPTIONS = '--max-semi-space-size=32';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '50000' },
    seed: { type: 'string', default: '1' },
    workers: { type: 'string', default: '1' },
  },
});
const count = Number(values.count);
const seed = Number(values.seed);
const workerCount = Number(values.workers);
if (!Number.isInteger(count) || count <= 0) throw new Error('--count must be a positive integer');
if (!Number.isInteger(workerCount) || workerCount <= 0)
  throw new Error('--workers must be a positive integer');

const environment = await createBenchEnvironment('ingest');
const { config, client } = environment;
try {
  log(`generating ${count} events (seed ${seed})`);
  const lines: string[] = [];
  for (const event of generateEvents({ count, seed })) lines.push(JSON.stringify(event));

  // ---- ours: NDJSON → producer → BullMQ → worker (store, fold, project) ----
  await ensureDoctorsIndex(client, environment.alias);
  const connection = { url: config.REDIS_URL };
  const queue = createIngestQueue({ connection, prefix: environment.redisPrefix });
  const queueEvents = new QueueEvents(INGEST_QUEUE_NAME, { connection, prefix: environment.redisPrefix });
  await queueEvents.waitUntilReady();
  // Workers run as processes of their own (`npm run worker`, --workers of them), as in production;
  // this process is the producer.
  const workers = Array.from({ length: workerCount }, () =>
    startProcess('services/worker/src/main.ts', [], {
      DATABASE_URL: environment.databaseUrl,
      REDIS_PREFIX: environment.redisPrefix,
      ELASTICSEARCH_INDEX: environment.alias,
      LOG_LEVEL: 'info',
      // The young-generation size `npm run worker` runs with (see package.json).
      NODE_OPTIONS: WORKER_NODE_OPTIONS,
    }),
  );
  await Promise.all(workers.map((worker) => worker.waitForOutput(/worker started/)));
  const workerPids = workers.flatMap((worker) => (worker.child.pid === undefined ? [] : [worker.child.pid]));
  const oursCpu = snapshotCpu(workerPids);
  const oursStarted = performance.now();
  const produced = await produceFromNdjson({
    queue,
    input: Readable.from(lines.map((line) => `${line}\n`)),
    sourceName: 'bench',
    batchSize: config.INGEST_BATCH_SIZE,
  });
  const outcome = await waitForJobs(queue, queueEvents, produced.jobIds, { timeoutMs: 30 * 60_000 });
  // Done means searchable, as for `ingest --wait`: one refresh of the alias at the end.
  await client.indices.refresh({ index: environment.alias });
  const oursSeconds = (performance.now() - oursStarted) / 1000;
  const oursCpuAfter = snapshotCpu(workerPids);
  if (outcome.failed.length > 0 || outcome.timedOut)
    throw new Error(`ingest failed: ${JSON.stringify(outcome.failed[0])}`);
  await Promise.all(workers.map((worker) => worker.stop('SIGTERM')));
  await queueEvents.close();
  await queue.obliterate({ force: true });
  await queue.close();
  const ours = count / oursSeconds;
  log(`ours: ${count} events in ${oursSeconds.toFixed(2)} s = ${ours.toFixed(0)} events/s`);
  if (oursCpu && oursCpuAfter) log(`      ${describeCpu(oursCpu, oursCpuAfter, oursSeconds)}`);

  // ---- raw: the same documents, one index operation per event, straight into a fresh index ----
  const expected = projectRawEvents(lines, config.SITE_ORIGIN);
  const perEventPlace = expected.validEvents.map((event) => event.placeId);
  const documents = new Map([...expected.rows].map(([placeId, row]) => [placeId, row.document]));
  const rawIndex = `${environment.alias}__raw`;
  await createDoctorsIndex(client, rawIndex);
  const batches: string[][] = [];
  for (let start = 0; start < perEventPlace.length; start += config.INGEST_BATCH_SIZE) {
    batches.push(perEventPlace.slice(start, start + config.INGEST_BATCH_SIZE));
  }
  const rawCpu = snapshotCpu([]);
  const rawStarted = performance.now();
  let next = 0;
  // Same parallelism as the worker: WORKER_CONCURRENCY bulk requests in flight.
  await Promise.all(
    Array.from({ length: config.WORKER_CONCURRENCY }, async () => {
      for (let batch = batches[next++]; batch; batch = batches[next++]) {
        const operations = batch.flatMap((placeId) => [
          { index: { _index: rawIndex, _id: placeId } },
          documents.get(placeId),
        ]);
        const response = await client.bulk({ operations });
        if (response.errors) throw new Error('raw bulk had item errors');
      }
    }),
  );
  const rawSeconds = (performance.now() - rawStarted) / 1000;
  const rawCpuAfter = snapshotCpu([]);
  const raw = perEventPlace.length / rawSeconds;
  log(
    `raw:  ${perEventPlace.length} events in ${rawSeconds.toFixed(2)} s = ${raw.toFixed(0)} events/s (bulk of the same documents)`,
  );
  if (rawCpu && rawCpuAfter) log(`      ${describeCpu(rawCpu, rawCpuAfter, rawSeconds)}`);

  console.log(
    JSON.stringify({
      bench: 'ingest',
      ours: Math.round(ours),
      raw: Math.round(raw),
      unit: 'events/s',
      ratio: Number((ours / raw).toFixed(3)),
    }),
  );
} finally {
  await environment.cleanup();
}
