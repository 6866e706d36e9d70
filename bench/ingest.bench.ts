// `npm run bench:ingest [-- --count N --seed S]`: end-to-end events/s through queue → store → index,
// against, in the same run, the raw Elasticsearch bulk rate of the same documents with the same mapping
// (`raw`) and the floor of any event-sourced pipeline (`floor`): a plain multi-row insert of the same
// events into an identical events table, then that raw bulk, one after the other.
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { QueueEvents } from 'bullmq';
import { sql } from 'kysely';
import { createIngestQueue, INGEST_QUEUE_NAME, produceFromNdjson, waitForJobs } from '@directory/ingest';
import { generateEvents } from '@directory/sample-data';
import { createDoctorsIndex, ensureDoctorsIndex } from '@directory/search-index';
import { projectRawEvents, startProcess } from '@directory/testing';
import { createBenchEnvironment, log, runMeasuringScript } from './bench-environment.js';
import { cpuBetween, describeCpu, formatCpu, snapshotCpu, wallSecondsOnAllCores } from './cpu-usage.js';
import { REQUIRED_STEP_ROUNDS, type RequiredStep } from './required-steps.js';

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
const { config, client, db } = environment;
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
  await environment.settle();
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
  const oursUsage = oursCpu && oursCpuAfter ? cpuBetween(oursCpu, oursCpuAfter) : undefined;
  if (oursUsage) log(`      ${formatCpu(oursUsage, oursSeconds)}`);

  // ---- raw: the same documents, one index operation per event, straight into a fresh index ----
  const expected = projectRawEvents(lines, config.SITE_ORIGIN);
  const perEventPlace = expected.validEvents.map((event) => event.placeId);
  const documents = new Map([...expected.rows].map(([placeId, row]) => [placeId, row.document]));
  /** Runs `work` on every batch, WORKER_CONCURRENCY at a time: the worker's parallelism. */
  const inParallel = async <T>(batches: ReadonlyArray<T>, work: (batch: T) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: config.WORKER_CONCURRENCY }, async () => {
        for (let batch = batches[next++]; batch !== undefined; batch = batches[next++]) await work(batch);
      }),
    );
  };
  const batchesOf = <T>(items: ReadonlyArray<T>): T[][] => {
    const batches: T[][] = [];
    for (let start = 0; start < items.length; start += config.INGEST_BATCH_SIZE)
      batches.push(items.slice(start, start + config.INGEST_BATCH_SIZE));
    return batches;
  };
  /** Bulk-indexes one operation per event, as the raw figure does, into `index`. */
  const bulkDocuments = (index: string) =>
    inParallel(batchesOf(perEventPlace), async (batch) => {
      const operations = batch.flatMap((placeId) => [
        { index: { _index: index, _id: placeId } },
        documents.get(placeId),
      ]);
      const response = await client.bulk({ operations });
      if (response.errors) throw new Error('raw bulk had item errors');
    });
  const rawIndex = `${environment.alias}__raw`;
  await createDoctorsIndex(client, rawIndex);
  await environment.settle();
  const rawCpu = snapshotCpu([]);
  const rawStarted = performance.now();
  await bulkDocuments(rawIndex);
  const rawSeconds = (performance.now() - rawStarted) / 1000;
  const rawCpuAfter = snapshotCpu([]);
  const raw = perEventPlace.length / rawSeconds;
  log(
    `raw:  ${perEventPlace.length} events in ${rawSeconds.toFixed(2)} s = ${raw.toFixed(0)} events/s (bulk of the same documents)`,
  );
  if (rawCpu && rawCpuAfter) log(`      ${describeCpu(rawCpu, rawCpuAfter, rawSeconds)}`);

  // ---- floor: the events made durable (a plain multi-row INSERT per batch into a table like `events`,
  // same indexes, one transaction each; the generator repeats some events, and the event id stays the
  // idempotency key), then the raw bulk of the resulting documents, one after the other ----
  await sql`create table events_floor (like events including all)`.execute(db);
  const floorIndex = `${environment.alias}__floor`;
  await createDoctorsIndex(client, floorIndex);
  await environment.settle();
  const floorCpu = snapshotCpu([]);
  const floorStarted = performance.now();
  await inParallel(batchesOf(expected.validEvents), async (batch) => {
    // In event-id order, as the store appends: concurrent batches sharing a repeated event cannot deadlock.
    const sorted = [...batch].sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0));
    const rows = sorted.map(
      (event) =>
        sql`(${event.eventId}, ${event.placeId}, ${event.type}, ${event.occurredAt}, ${event.schemaVersion}, ${JSON.stringify(event.payload)}::json)`,
    );
    await sql`
      insert into events_floor (event_id, place_id, type, occurred_at, schema_version, payload)
      values ${sql.join(rows)}
      on conflict (event_id) do nothing`.execute(db);
  });
  const floorInsertSeconds = (performance.now() - floorStarted) / 1000;
  await bulkDocuments(floorIndex);
  const floorSeconds = (performance.now() - floorStarted) / 1000;
  const floorCpuAfter = snapshotCpu([]);
  const floor = perEventPlace.length / floorSeconds;
  log(
    `floor: ${perEventPlace.length} events in ${floorSeconds.toFixed(2)} s = ${floor.toFixed(0)} events/s ` +
      `(insert ${floorInsertSeconds.toFixed(2)} s, then bulk ${(floorSeconds - floorInsertSeconds).toFixed(2)} s)`,
  );
  const floorUsage = floorCpu && floorCpuAfter ? cpuBetween(floorCpu, floorCpuAfter) : undefined;
  if (floorUsage) log(`      ${formatCpu(floorUsage, floorSeconds)}`);

  // ---- the pure steps ours cannot leave out, alone, against the CPU each side spent above ----
  await environment.settle();
  const stepsCpu = snapshotCpu([]);
  const stepsStarted = performance.now();
  const requiredSteps = await runMeasuringScript<RequiredStep[]>('bench/required-steps.cli.ts', [
    '--count',
    String(count),
    '--seed',
    String(seed),
  ]);
  const stepsCpuAfter = snapshotCpu([]);
  const requiredSeconds = requiredSteps.reduce((sum, { cpuSeconds }) => sum + cpuSeconds, 0);
  log(`required steps, pure CPU with no I/O (median of ${REQUIRED_STEP_ROUNDS} rounds each):`);
  for (const { step, cpuSeconds } of requiredSteps)
    log(`      ${step.padEnd(42)} ${cpuSeconds.toFixed(2)} s`);
  // Its process is `other`; the engines' share says whether anything else ran meanwhile.
  if (stepsCpu && stepsCpuAfter)
    log(`      ${describeCpu(stepsCpu, stepsCpuAfter, (performance.now() - stepsStarted) / 1000)}`);
  const against =
    oursUsage && floorUsage
      ? `, against the machine's ${oursUsage.busySeconds.toFixed(2)} CPU s for ours and ${floorUsage.busySeconds.toFixed(2)} for the floor`
      : '';
  log(`      in all ${requiredSeconds.toFixed(2)} s${against}`);
  // The fastest ours could go here: the floor's CPU plus the required steps the floor does not do
  // itself, on every core with none idle. (Ours indexes a place once a batch, the floor once an event:
  // its Elasticsearch share is, if anything, more than ours needs.)
  let bestRatioFloor: number | undefined;
  if (floorUsage) {
    const beyondFloor = requiredSteps
      .filter((step) => !step.inFloor)
      .reduce((sum, { cpuSeconds }) => sum + cpuSeconds, 0);
    const seconds = wallSecondsOnAllCores(floorUsage.busySeconds + beyondFloor);
    const best = perEventPlace.length / seconds;
    bestRatioFloor = best / floor;
    log(
      `best case: the floor's ${floorUsage.busySeconds.toFixed(2)} CPU s plus ${beyondFloor.toFixed(2)} s of ` +
        `required steps it does not do, on every core with none idle: ${seconds.toFixed(2)} s = ` +
        `${best.toFixed(0)} events/s, ratio_floor ${bestRatioFloor.toFixed(2)}`,
    );
  }

  console.log(
    JSON.stringify({
      bench: 'ingest',
      ours: Math.round(ours),
      raw: Math.round(raw),
      unit: 'events/s',
      ratio: Number((ours / raw).toFixed(3)),
      floor: Math.round(floor),
      ratio_floor: Number((ours / floor).toFixed(3)),
      required_cpu_s: Number(requiredSeconds.toFixed(2)),
      ...(bestRatioFloor === undefined ? {} : { best_ratio_floor: Number(bestRatioFloor.toFixed(3)) }),
    }),
  );
} finally {
  await environment.cleanup();
}
