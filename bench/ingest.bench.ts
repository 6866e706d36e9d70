// `npm run bench:ingest [-- --count N --seed S --workers W --rounds R]`: end-to-end events/s through
// queue → store → index, against, in the same run, the raw Elasticsearch bulk rate of the same documents
// with the same mapping (`raw`) and the floor of this design (`floor`): the events made durable by a
// plain multi-row insert into an identical events table, and one document per place per batch indexed,
// the documents the design must write. After a small untimed run of each side, the sides alternate over
// `--rounds` rounds (default 3), each side on a fresh database, alias and queue; the figures are the
// medians, with their ranges. `cpu_ratio` compares the process CPU of every participant (producer,
// workers, PostgreSQL, Elasticsearch, Redis; steal excluded) per 1,000 events with the floor's plus the
// pure steps the design requires.
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import type { estypes } from '@elastic/elasticsearch';
import { sql, type CompiledQuery } from 'kysely';
import { loadConfig } from '@directory/config';
import type { PlaceEvent } from '@directory/domain';
import { generateEvents } from '@directory/sample-data';
import { createDoctorsIndex } from '@directory/search-index';
import { projectRawEvents } from '@directory/testing';
import {
  createBenchEnvironment,
  log,
  runMeasuringScript,
  type BenchEnvironment,
} from './bench-environment.js';
import { cpuBetween, formatCpu, snapshotCpu, type CpuUsage } from './cpu-usage.js';
import {
  FLOOR_DEFINITION,
  floorBulkBody,
  ingestGoalLines,
  perThousandEvents,
  planFloorBatches,
  roundFigures,
  type FloorBatch,
  type RoundFigures,
} from './ingest-floor.js';
import { startIngestPipeline } from './ingest-pipeline.js';
import { describeMachine, type MachineDescription } from './machine.js';
import {
  alternateRounds,
  figure,
  formatFigure,
  parseRounds,
  resultsOf,
  roundedRange,
  ROUNDS_OPTION,
  type Figure,
} from './rounds.js';
import { REQUIRED_STEP_ROUNDS, type RequiredStep } from './required-steps.js';

/** The untimed first run of each side: enough batches to warm the engines and the JIT. */
const WARMUP_EVENTS = 5_000;

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '50000' },
    seed: { type: 'string', default: '1' },
    workers: { type: 'string', default: '1' },
    rounds: ROUNDS_OPTION,
  },
});
const count = Number(values.count);
const seed = Number(values.seed);
const workerCount = Number(values.workers);
if (!Number.isInteger(count) || count <= 0) throw new Error('--count must be a positive integer');
if (!Number.isInteger(workerCount) || workerCount <= 0)
  throw new Error('--workers must be a positive integer');
const rounds = parseRounds(values.rounds);

const config = loadConfig();

/** One timed phase: its wall seconds and what every participant spent meanwhile. */
type Phase = { seconds: number; usage: CpuUsage };

/** What the phases work on, prepared once, untimed. */
type Workload = {
  lines: string[];
  /** The floor's batches, cut from `lines` as the producer cuts them. */
  floorBatches: FloorBatch[];
  /** One index operation per valid event, for raw. */
  perEventPlace: string[];
};

log(`generating ${count} events (seed ${seed})`);
const lines: string[] = [];
for (const event of generateEvents({ count, seed })) lines.push(JSON.stringify(event));
const expected = projectRawEvents(lines, config.SITE_ORIGIN);
// Every place's folded document, serialized before any timer: serializing it is a required step, not
// the floor's I/O (and raw serializes its own, through the client, as before).
const documents = new Map([...expected.rows].map(([placeId, row]) => [placeId, row.document]));
const documentJson = new Map(
  [...documents].map(([placeId, document]) => [placeId, JSON.stringify(document)]),
);
const workloadOf = (part: string[]): Workload => ({
  lines: part,
  floorBatches: planFloorBatches(part, config.INGEST_BATCH_SIZE),
  perEventPlace: projectRawEvents(part, config.SITE_ORIGIN).validEvents.map((event) => event.placeId),
});
const workload = workloadOf(lines);
const warmup = workloadOf(lines.slice(0, Math.min(WARMUP_EVENTS, count)));
const floorDocuments = workload.floorBatches.reduce((sum, batch) => sum + batch.placeIds.length, 0);
log(
  `${count} events: ${expected.validEvents.length} valid, ${expected.rows.size} places; ` +
    `${workload.floorBatches.length} batches of ${config.INGEST_BATCH_SIZE}, ${floorDocuments} floor documents ` +
    `(one per place per batch)`,
);

/** Runs `work` on every item, WORKER_CONCURRENCY at a time: the worker's parallelism. */
async function inParallel<T>(items: ReadonlyArray<T>, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: config.WORKER_CONCURRENCY }, async () => {
      for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item);
    }),
  );
}

/** Times `work` on settled engines, with the CPU of this process (`self`), `childPids` and the engines. */
async function timed(
  environment: BenchEnvironment,
  names: { self: string; child: string; childPids?: number[] },
  work: () => Promise<void>,
): Promise<Phase> {
  await environment.settle();
  const childPids = names.childPids ?? [];
  const before = snapshotCpu(childPids, names);
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const after = snapshotCpu(childPids, names);
  if (before === undefined || after === undefined)
    throw new Error('bench:ingest needs /proc (Linux) to measure CPU per participant');
  return { seconds, usage: cpuBetween(before, after) };
}

/** Ours: NDJSON → producer (this process) → BullMQ → worker processes (store, fold, project). */
async function runOurs(part: Workload): Promise<Phase> {
  const environment = await createBenchEnvironment('ingest');
  try {
    const pipeline = await startIngestPipeline(environment, workerCount);
    try {
      const childPids = pipeline.workerPids;
      return await timed(environment, { self: 'producer', child: 'worker', childPids }, () =>
        pipeline.ingest(part.lines, config.INGEST_BATCH_SIZE),
      );
    } finally {
      await pipeline.stop();
    }
  } finally {
    await environment.cleanup();
  }
}

/** The floor's insert of one batch, compiled before the timer (payloads serialized, as bound). */
function floorInsert(environment: BenchEnvironment, events: ReadonlyArray<PlaceEvent>): CompiledQuery {
  // In event-id order, as the store appends: concurrent batches sharing a repeated event cannot deadlock.
  const sorted = [...events].sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0));
  const rows = sorted.map(
    (event) =>
      sql`(${event.eventId}, ${event.placeId}, ${event.type}, ${event.occurredAt}, ${event.schemaVersion}, ${JSON.stringify(event.payload)}::json)`,
  );
  return sql`
    insert into events_floor (event_id, place_id, type, occurred_at, schema_version, payload)
    values ${sql.join(rows)}
    on conflict (event_id) do nothing`.compile(environment.db);
}

/**
 * The floor: per batch of the producer's, a plain multi-row INSERT … ON CONFLICT (event_id) DO NOTHING
 * into `events_floor` (made LIKE events INCLUDING ALL: same columns and indexes; one transaction each),
 * then a bulk of one plain index action per place the batch changed, WORKER_CONCURRENCY batches at a time,
 * over the same DATABASE_URL (so the same socket) as the worker's, and one refresh at the end as ours. Every
 * statement and bulk body is prepared before the timer: parsing and serializing are the required steps',
 * not the floor's.
 */
async function runFloor(part: Workload): Promise<Phase> {
  const environment = await createBenchEnvironment('ingest');
  try {
    const { db, client } = environment;
    await sql`create table events_floor (like events including all)`.execute(db);
    const index = `${environment.alias}__floor`;
    await createDoctorsIndex(client, index);
    const prepared = part.floorBatches.map((batch) => ({
      insert: batch.events.length === 0 ? undefined : floorInsert(environment, batch.events),
      bulk: batch.placeIds.length === 0 ? undefined : floorBulkBody(index, batch.placeIds, documentJson),
    }));
    return await timed(environment, { self: 'floor client', child: 'worker' }, async () => {
      await inParallel(prepared, async ({ insert, bulk }) => {
        if (insert !== undefined) await db.executeQuery(insert);
        if (bulk === undefined) return;
        // The typed bulk() only takes objects; the transport sends a prepared NDJSON body untouched.
        const response = await client.transport.request<estypes.BulkResponse>({
          method: 'POST',
          path: '/_bulk',
          bulkBody: bulk,
        });
        if (response.errors) throw new Error('floor bulk had item errors');
      });
      await client.indices.refresh({ index });
    });
  } finally {
    await environment.cleanup();
  }
}

/** Raw: the same documents, one index operation per valid event, straight into a fresh index. */
async function runRaw(part: Workload): Promise<Phase> {
  const environment = await createBenchEnvironment('ingest');
  try {
    const { client } = environment;
    const index = `${environment.alias}__raw`;
    await createDoctorsIndex(client, index);
    const batches: string[][] = [];
    for (let start = 0; start < part.perEventPlace.length; start += config.INGEST_BATCH_SIZE)
      batches.push(part.perEventPlace.slice(start, start + config.INGEST_BATCH_SIZE));
    return await timed(environment, { self: 'raw client', child: 'worker' }, () =>
      inParallel(batches, async (batch) => {
        const operations = batch.flatMap((placeId) => [
          { index: { _index: index, _id: placeId } },
          documents.get(placeId),
        ]);
        const response = await client.bulk({ operations });
        if (response.errors) throw new Error('raw bulk had item errors');
      }),
    );
  } finally {
    await environment.cleanup();
  }
}

/** The CPU seconds of every named participant (steal is never in a process's CPU). */
const participantsCpu = (usage: CpuUsage): number =>
  [...usage.byPart.values()].reduce((sum, seconds) => sum + seconds, 0);

// ---- the machine and its engines, then one untimed run of each side ----
const probe = await createBenchEnvironment('ingest');
let machine: MachineDescription;
try {
  machine = await describeMachine(probe);
} finally {
  await probe.cleanup();
}
log(machine.block);
const socket = { postgresql: machine.facts.postgresql.socket, redis: machine.facts.redis.socket };
log(`ours and the floor reach PostgreSQL over ${socket.postgresql} (the same DATABASE_URL)`);

const sides = [
  { name: 'ours', run: () => runOurs(workload) },
  { name: 'floor', run: () => runFloor(workload) },
  { name: 'raw', run: () => runRaw(workload) },
];
const sideEvents = { ours: count, floor: count, raw: workload.perEventPlace.length };
const measured = await alternateRounds<Phase>({
  rounds,
  sides,
  warmup: async () => {
    log(`warm-up (untimed): ${warmup.lines.length} events through ours, the floor and raw`);
    await runOurs(warmup);
    await runFloor(warmup);
    await runRaw(warmup);
  },
  afterRound: ({ round, order, results }) => {
    log(`round ${round + 1} of ${rounds} (${order.join(', ')}):`);
    for (const name of order) {
      const phase = results.get(name);
      if (phase === undefined) continue;
      const events = sideEvents[name as keyof typeof sideEvents];
      log(
        `  ${name.padEnd(5)} ${events} events in ${phase.seconds.toFixed(2)} s = ` +
          `${(events / phase.seconds).toFixed(0)} events/s, ` +
          `${perThousandEvents(participantsCpu(phase.usage), count).toFixed(3)} CPU s per 1,000 events`,
      );
      log(`        ${formatCpu(phase.usage, phase.seconds)}`);
    }
  },
});
const ours = resultsOf(measured, 'ours');
const floor = resultsOf(measured, 'floor');
const raw = resultsOf(measured, 'raw');

// ---- the pure steps ours cannot leave out, alone, in a process of their own ----
log(`required steps, pure CPU with no I/O (median of ${REQUIRED_STEP_ROUNDS} rounds each):`);
const requiredSteps = await runMeasuringScript<RequiredStep[]>('bench/required-steps.cli.ts', [
  '--count',
  String(count),
  '--seed',
  String(seed),
]);
const requiredSeconds = requiredSteps.reduce((sum, { cpuSeconds }) => sum + cpuSeconds, 0);
for (const { step, cpuSeconds } of requiredSteps) log(`  ${step.padEnd(42)} ${cpuSeconds.toFixed(2)} s`);
const requiredPerThousand = perThousandEvents(requiredSeconds, count);
log(`  in all ${requiredSeconds.toFixed(2)} s = ${requiredPerThousand.toFixed(3)} CPU s per 1,000 events`);

// ---- per round, then medians and ranges ----
const figuresOf = (phase: Phase) => ({
  seconds: phase.seconds,
  cpuSeconds: participantsCpu(phase.usage),
  stealSeconds: phase.usage.stealSeconds,
});
const perRound = measured.map((_, n) =>
  roundFigures(
    {
      ours: figuresOf(ours[n] as Phase),
      floor: figuresOf(floor[n] as Phase),
      raw: figuresOf(raw[n] as Phase),
    },
    {
      events: count,
      rawEvents: sideEvents.raw,
      requiredCpuSeconds: requiredSeconds,
      cores: availableParallelism(),
    },
  ),
);
const over = (pick: (round: RoundFigures) => number): Figure => figure(perRound.map(pick));
const oursRate = over((round) => round.ours);
const floorRate = over((round) => round.floor);
const rawRate = over((round) => round.raw);
const ratio = over((round) => round.ratio);
const ratioFloor = over((round) => round.ratioFloor);
const cpuRatioFigure = over((round) => round.cpuRatio);
const oursCpu = over((round) => round.oursCpu);
const floorCpu = over((round) => round.floorCpu);
const bestRatioFloor = over((round) => round.bestRatioFloor);
const steal = perRound.reduce((sum, round) => sum + round.stealSeconds, 0);

log(`medians over ${rounds} round${rounds === 1 ? '' : 's'} (range):`);
log(`  ours        ${formatFigure(oursRate, 0, 'events/s')}`);
log(`  floor       ${formatFigure(floorRate, 0, 'events/s')} (${FLOOR_DEFINITION})`);
log(`  raw         ${formatFigure(rawRate, 0, 'events/s')} (one bulk operation per valid event)`);
log(`  ratio       ${formatFigure(ratio, 3)} (ours / raw)`);
log(`  ratio_floor ${formatFigure(ratioFloor, 3)} (ours / floor)`);
log(
  `  CPU s per 1,000 events: ours ${formatFigure(oursCpu, 3)}, floor ${formatFigure(floorCpu, 3)}, ` +
    `required steps ${requiredPerThousand.toFixed(3)}`,
);
log(
  `  cpu_ratio   ${formatFigure(cpuRatioFigure, 3)} (ours / (floor + required steps), CPU per 1,000 events)`,
);
log(
  `  best case   ratio_floor ${formatFigure(bestRatioFloor, 3)} (floor CPU + required steps on every core)`,
);
log(`  steal       ${steal.toFixed(2)} s over every timed phase (counted as nobody's work)`);
log('goals:');
for (const line of ingestGoalLines({
  cpuRatio: cpuRatioFigure.median,
  oursEventsPerSecond: oursRate.median,
  ratioFloor: ratioFloor.median,
}))
  log(`  ${line}`);

console.log(
  JSON.stringify({
    bench: 'ingest',
    ours: Math.round(oursRate.median),
    raw: Math.round(rawRate.median),
    unit: 'events/s',
    ratio: Number(ratio.median.toFixed(3)),
    floor: Math.round(floorRate.median),
    ratio_floor: Number(ratioFloor.median.toFixed(3)),
    required_cpu_s: Number(requiredSeconds.toFixed(2)),
    best_ratio_floor: Number(bestRatioFloor.median.toFixed(3)),
    cpu_ratio: Number(cpuRatioFigure.median.toFixed(3)),
    cpu_ratio_range: roundedRange(cpuRatioFigure, 3),
    ours_cpu_s_per_1k: Number(oursCpu.median.toFixed(3)),
    floor_cpu_s_per_1k: Number(floorCpu.median.toFixed(3)),
    required_cpu_s_per_1k: Number(requiredPerThousand.toFixed(3)),
    rounds,
    steal_s: Number(steal.toFixed(2)),
    floor_definition: FLOOR_DEFINITION,
    socket,
  }),
);
