// `npm run bench:reindex [-- --places N] [--rounds 3] [--replay [--unchanged] [--with-live-ingest |
// --skip-live-ingest] [--live-seconds S] [--live-baseline-seconds B] [--live-rate R] [--live-places P]
// [--replay-pause-ms N]]`: time to reindex N served places from PostgreSQL (the real `npm run reindex` process, with its peak RSS; with --replay, `npm run reindex -- --replay`,
// which refolds every place from its event stream) against a raw bulk load of the same pre-serialized
// documents into a fresh index with the same mapping. After one warm-up run, the sides alternate over
// `--rounds` rounds; each figure is the median over the rounds, with its range.
//
// A replay runs after a change to the fold, so by default every stored document differs from its refold
// and every row is rewritten (the difference is stored again before each of ours' runs); --unchanged
// keeps them as the refold makes them (a replay run again: no row is rewritten). With --replay, the
// sides are ours, the floor (bench/replay-floor.cli.ts: every stream read by place in the replay's pages,
// the same fold, the same bulk) and raw; `cpu_ratio` is ours' CPU over the floor's (every participant:
// the process, PostgreSQL, Elasticsearch; process CPU, so steal is nobody's), `busy` ours' CPU over
// cores × wall time. Then, in one more phase (alone with --with-live-ingest, left out with
// --skip-live-ingest), a live ingest through the real worker and API (`--live-rate` events a second)
// measures freshness while replays run back to back for at least `--live-seconds` (default: one replay),
// after `--live-baseline-seconds` (20) of the same live ingest with no replay, for comparison.
// `--replay-pause-ms N` has every one of ours' replays wait N ms after each page (an experiment: room for
// live traffic; the replay's default is no pause).
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import type { estypes } from '@elastic/elasticsearch';
import { sql } from 'kysely';
import type { PlaceProjection } from '@directory/domain';
import {
  appendEvents,
  doctorDigestInDatabase,
  documentDigestInDatabase,
  savePlaceStates,
  streamProjections,
} from '@directory/event-store';
import { generateEvents } from '@directory/sample-data';
import { createDoctorsIndex, ensureDoctorsIndex } from '@directory/search-index';
import { projectRawEvents } from '@directory/testing';
import { createBenchEnvironment, log } from './bench-environment.js';
import { formatCpu, type CpuUsage } from './cpu-usage.js';
import {
  freshnessPercentiles,
  GIVE_UP_MS,
  measureFreshness,
  startLivePipeline,
  type FreshnessRun,
} from './live-freshness.js';
import { describeMachine } from './machine.js';
import {
  measured,
  reindexPeakRssMb,
  REPLAY_ENGINES,
  runReplayFloor,
  startReindex,
} from './reindex-process.js';
import { participantSeconds, participantsBetween, snapshotParticipants } from './participant-cpu.js';
import { tableUpdates, walCounters } from './postgres-counters.js';
import {
  describeAgainstReplays,
  REPLAY_PHASES,
  type ReplayMoments,
  formatGoal,
  goalMet,
  REPLAY_GOALS,
  roundFigures,
  slowestFound,
  summarizeStages,
  type RoundFigures,
  type SideRun,
} from './replay-figures.js';
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

const { values } = parseArgs({
  options: {
    places: { type: 'string', default: '1000000' },
    rounds: ROUNDS_OPTION,
    replay: { type: 'boolean', default: false },
    unchanged: { type: 'boolean', default: false },
    'with-live-ingest': { type: 'boolean', default: false },
    'skip-live-ingest': { type: 'boolean', default: false },
    'live-seconds': { type: 'string', default: '0' },
    'live-rate': { type: 'string', default: '2' },
    'live-places': { type: 'string', default: '500' },
    'live-baseline-seconds': { type: 'string', default: '20' },
    'replay-pause-ms': { type: 'string' },
  },
});
const replay = values.replay;
if (values.unchanged && !replay) throw new Error('--unchanged only applies to --replay');
const target = Number(values.places);
if (!Number.isInteger(target) || target <= 0) throw new Error('--places must be a positive integer');
const liveOnly = values['with-live-ingest'];
if ((liveOnly || values['skip-live-ingest']) && !replay)
  throw new Error('--with-live-ingest and --skip-live-ingest only apply to --replay');
if (liveOnly && values['skip-live-ingest'])
  throw new Error('--with-live-ingest and --skip-live-ingest exclude each other');
const withLiveIngest = replay && !values['skip-live-ingest'];
const live = {
  seconds: Number(values['live-seconds']),
  rate: Number(values['live-rate']),
  places: Number(values['live-places']),
  baselineSeconds: Number(values['live-baseline-seconds']),
};
if (
  !(live.seconds >= 0) ||
  !(live.baselineSeconds > 0) ||
  !(live.rate > 0) ||
  !Number.isInteger(live.places) ||
  live.places <= 0
)
  throw new Error(
    '--live-seconds must be ≥ 0, --live-baseline-seconds and --live-rate positive, --live-places a positive integer',
  );
const pauseMs = values['replay-pause-ms'];
if (pauseMs !== undefined && (!replay || !/^\d+$/.test(pauseMs)))
  throw new Error('--replay-pause-ms applies to --replay, in whole milliseconds');
const rounds = liveOnly ? 0 : parseRounds(values.rounds);
const cores = availableParallelism();

/** The generated events the served places (and, for a replay, their streams) are seeded from. */
const SEED_EVENTS = { count: 60_000, seed: 3 };

/** One measured run of a side, with what the log and the JSON line need of it. */
type Measured = SideRun & { cpu: CpuUsage; rssMb?: number; foldCpuSeconds?: number };

const environment = await createBenchEnvironment('reindex');
const { db, client, config } = environment;
const workDir = await mkdtemp(join(tmpdir(), 'bench-reindex-'));
try {
  log((await describeMachine(environment)).block);
  const served = await seed();
  await ensureDoctorsIndex(client, environment.alias);
  const bulkFile = await writeBulkFile();

  let summary: Record<string, unknown> = { bench: replay ? 'reindex --replay' : 'reindex' };
  if (rounds > 0) summary = { ...summary, ...(await measureRounds(served, bulkFile)) };
  if (withLiveIngest) summary = { ...summary, ...(await measureLiveIngest()) };
  console.log(JSON.stringify(summary));
} finally {
  await rm(workDir, { recursive: true, force: true });
  await environment.cleanup();
}

/** Distinct realistic served places from the generator, cloned in SQL up to the target. */
async function seed(): Promise<number> {
  const expected = projectRawEvents(generateEvents(SEED_EVENTS), config.SITE_ORIGIN);
  const base: PlaceProjection[] = [...expected.rows.values()].filter((row) => row.document.served);
  if (replay) {
    // A replay refolds from the event store: the served places' streams are stored (and cloned) too.
    const servedIds = new Set(base.map((row) => row.placeId));
    const events = expected.validEvents.filter((event) => servedIds.has(event.placeId));
    for (let start = 0; start < events.length; start += 5_000)
      await appendEvents(db, events.slice(start, start + 5_000));
  }
  for (let start = 0; start < base.length; start += 2_000)
    await savePlaceStates(db, base.slice(start, start + 2_000));
  const copies = Math.ceil(target / base.length) - 1;
  log(`seeding ${target} served places (${base.length} distinct, cloned ${copies}×) …`);
  for (let copy = 1; copy <= copies; copy++) {
    // A clone gets a new id and profile slug in its stored document.
    const suffix = `-c${copy}`;
    await sql`
      insert into places (place_id, document, stream_version, state_version, served)
      select place_id || ${suffix},
             jsonb_set(jsonb_set(jsonb_set(jsonb_set(document::jsonb,
               '{placeId}', to_jsonb(place_id || ${suffix})),
               '{doctor,id}', to_jsonb(place_id || ${suffix})),
               '{profileSlug}', to_jsonb((document::jsonb #>> '{profileSlug}') || ${suffix})),
               '{doctor,profileUrl}', to_jsonb((document::jsonb #>> '{doctor,profileUrl}') || ${suffix}))::json,
             stream_version, state_version, served
      from places where place_id not like '%-c%'
      order by place_id
      limit ${Math.min(base.length, target - copy * base.length)}`.execute(db);
    if (replay)
      await sql`
        insert into events (event_id, place_id, type, occurred_at, schema_version, payload)
        select event_id || ${suffix}, place_id || ${suffix}, type, occurred_at, schema_version, payload
        from events
        where place_id in (select place_id from places where place_id not like '%-c%'
                           order by place_id
                           limit ${Math.min(base.length, target - copy * base.length)})
          and place_id not like '%-c%'
        order by position`.execute(db);
  }
  // As in production, the rows were written long before the reindex (not inside its catch-up margin), and
  // by the current worker: with the digests the clones' SQL copy left out, the ones a write of a row
  // without them computes from the stored document.
  await sql`
    update places set projected_version = 0, updated_at = now() - interval '1 hour',
      doctor_digest = ${doctorDigestInDatabase(sql.ref('document'))},
      document_digest = ${documentDigestInDatabase(sql.ref('document'))}`.execute(db);
  // The replay reads the events table by place: fresh statistics, as a long-lived store would have.
  if (replay) await sql`vacuum analyze`.execute(db);
  const count = Number(
    (await sql<{ count: string }>`select count(*) as count from places where served`.execute(db)).rows[0]
      ?.count,
  );
  log(`${count} served places in PostgreSQL`);
  return count;
}

/**
 * Before each of ours' replays (untimed): every stored document as an older fold made it, so the replay
 * rewrites every row, as after a change to the fold; vacuumed, so no phase pays for the dead rows.
 */
async function storeAsAnOlderFold(): Promise<void> {
  if (!replay || values.unchanged) return;
  await sql`update places set document = (document::jsonb || '{"foldedBy": "an older fold"}')::json`.execute(
    db,
  );
  await sql`vacuum analyze places`.execute(db);
}

/** The served documents, serialized beforehand (untimed), for raw's bulk loads. */
async function writeBulkFile(): Promise<string> {
  const bulkFile = join(workDir, 'bulk.ndjson');
  const out = createWriteStream(bulkFile);
  for await (const page of streamProjections(db, { pageSize: 2_000 })) {
    let chunk = '';
    for (const projection of page) {
      chunk += `{"index":{"_id":${JSON.stringify(projection.placeId)}}}\n${projection.documentJson}\n`;
    }
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bulkFile;
}

/** Ours: the operator command as a process of its own, with the script's heap flags. */
function startOurReindex() {
  const args = replay ? ['--replay', ...(pauseMs === undefined ? [] : ['--replay-pause-ms', pauseMs])] : [];
  return startReindex(environment, args);
}

async function runOurs(served: number): Promise<Measured> {
  await storeAsAnOlderFold();
  await environment.settle();
  const updatesBefore = await tableUpdates(db, 'places');
  const walBefore = await walCounters(db);
  const {
    value: output,
    seconds,
    cpu,
  } = await measured('reindex', async () => {
    const reindex = startOurReindex();
    const exitCode = await reindex.exited;
    if (exitCode !== 0) throw new Error(`reindex failed:\n${reindex.output()}`);
    return reindex.output();
  });
  const updatesAfter = await tableUpdates(db, 'places');
  const walAfter = await walCounters(db);
  const rssMb = reindexPeakRssMb(output);
  log(
    `ours:  ${served} docs in ${seconds.toFixed(1)} s = ${(served / seconds).toFixed(0)} docs/s, peak RSS ${rssMb} MB`,
  );
  log(`       ${/done in .*/.exec(output)?.[0] ?? ''}`);
  log(
    `       places rows rewritten ${updatesAfter.updates - updatesBefore.updates}, WAL ` +
      `${((walAfter.bytes - walBefore.bytes) / 1e6).toFixed(0)} MB and ${walAfter.fpi - walBefore.fpi} ` +
      `full-page images (the whole cluster's)`,
  );
  log(`       ${formatCpu(cpu, seconds, cores)}`);
  return {
    documents: served,
    seconds,
    cpuSeconds: participantSeconds(cpu, ['reindex', ...REPLAY_ENGINES]),
    cpu,
    rssMb,
  };
}

async function runFloor(round: number | 'warm-up'): Promise<Measured> {
  const { output: figures, seconds, cpu, cpuSeconds } = await runReplayFloor(environment);
  log(
    `floor${round === 'warm-up' ? ' (warm-up)' : ''}: ${figures.documents} docs in ${seconds.toFixed(1)} s = ` +
      `${(figures.documents / seconds).toFixed(0)} docs/s (${figures.events} events read by place, folded, ` +
      `bulk-loaded in ${figures.seconds.toFixed(1)} s; the fold ${figures.foldCpuSeconds.toFixed(1)} CPU s; ` +
      `peak RSS ${figures.peakRssMb} MB)`,
  );
  log(`       ${formatCpu(cpu, seconds, cores)}`);
  return { documents: figures.documents, seconds, cpuSeconds, cpu, foldCpuSeconds: figures.foldCpuSeconds };
}

/** Raw: the documents file bulk-loaded into a fresh index, 2,000 documents a request, one at a time. */
async function runRaw(bulkFile: string, served: number, round: number | 'warm-up'): Promise<Measured> {
  const index = `${environment.alias}__raw`;
  await createDoctorsIndex(client, index, { refresh_interval: '-1', number_of_replicas: 0 });
  await environment.settle();
  const { seconds, cpu } = await measured('raw', async () => {
    let lines: string[] = [];
    const send = async () => {
      const response = await client.transport.request<estypes.BulkResponse>({
        method: 'POST',
        path: `/${index}/_bulk`,
        bulkBody: `${lines.join('\n')}\n`,
      });
      if (response.errors) throw new Error('raw bulk had item errors');
      lines = [];
    };
    for await (const line of createInterface({ input: createReadStream(bulkFile) })) {
      lines.push(line);
      if (lines.length === 4_000) await send();
    }
    if (lines.length) await send();
    await client.indices.refresh({ index });
  });
  await client.indices.delete({ index }, { ignore: [404] });
  log(
    `raw${round === 'warm-up' ? ' (warm-up)' : ''}:   ${served} docs in ${seconds.toFixed(1)} s = ${(served / seconds).toFixed(0)} docs/s`,
  );
  log(`       ${formatCpu(cpu, seconds, cores)}`);
  // Raw asks nothing of PostgreSQL.
  return { documents: served, seconds, cpuSeconds: participantSeconds(cpu, ['bench', 'elasticsearch']), cpu };
}

async function measureRounds(served: number, bulkFile: string): Promise<Record<string, unknown>> {
  const sides = [
    { name: 'ours', run: () => runOurs(served) },
    ...(replay ? [{ name: 'floor', run: (round: number) => runFloor(round) }] : []),
    { name: 'raw', run: (round: number) => runRaw(bulkFile, served, round) },
  ];
  const done = await alternateRounds<Measured>({
    rounds,
    sides,
    // The engines' caches and buffers filled with what every side reads before the first measured run.
    warmup: async () => {
      log('warm-up (not measured)');
      // With --unchanged, one replay first stores every document as the refold writes it (the seed's
      // SQL clones are not JSON.stringify's text), so the measured replays find nothing to rewrite.
      if (replay && values.unchanged) await runOurs(served);
      if (replay) await runFloor('warm-up');
      else await runRaw(bulkFile, served, 'warm-up');
    },
    afterRound: ({ round, order }) => log(`-- round ${round + 1} of ${rounds} done (${order.join(', ')})`),
  });
  const ours = resultsOf(done, 'ours');
  const raw = resultsOf(done, 'raw');
  const floor = replay ? resultsOf(done, 'floor') : undefined;
  const perRound: RoundFigures[] = ours.map((run, index) =>
    roundFigures({ ours: run, raw: raw[index] as Measured, floor: floor?.[index] }, cores),
  );
  const of = (pick: (figures: RoundFigures) => number | undefined): Figure | undefined => {
    const picked = perRound.map(pick);
    return picked.every((value): value is number => value !== undefined) ? figure(picked) : undefined;
  };
  const oursRate = of((r) => r.ours) as Figure;
  const rawRate = of((r) => r.raw) as Figure;
  const ratio = of((r) => r.ratio) as Figure;
  const busy = of((r) => r.busy) as Figure;
  const rss = figure(ours.map((run) => run.rssMb ?? Number.NaN));
  const floorRate = of((r) => r.floor);
  const ratioFloor = of((r) => r.ratioFloor);
  const cpuRatio = of((r) => r.cpuRatio);
  const bestRatio = of((r) => r.bestRatio);
  const foldCpu = floor ? figure(floor.map((run) => run.foldCpuSeconds ?? Number.NaN)) : undefined;
  const allRuns = [...ours, ...raw, ...(floor ?? [])];
  const stealSeconds = allRuns.reduce((sum, run) => sum + run.cpu.stealSeconds, 0);

  log(`\nover ${rounds} round${rounds === 1 ? '' : 's'} (median, range):`);
  log(`ours    ${formatFigure(oursRate, 0, 'docs/s')}, peak RSS ${formatFigure(rss, 0, 'MB')}`);
  if (floorRate) log(`floor   ${formatFigure(floorRate, 0, 'docs/s')}`);
  log(`raw     ${formatFigure(rawRate, 0, 'docs/s')}`);
  log(`ratio ${formatFigure(ratio, 2)} (ours ÷ raw, docs/s)`);
  if (ratioFloor) log(`ratio_floor ${formatFigure(ratioFloor, 2)} (ours ÷ floor, docs/s)`);
  if (foldCpu) log(`fold ${formatFigure(foldCpu, 1, 'CPU s')} (inside the floor)`);
  if (bestRatio)
    log(`best case ${formatFigure(bestRatio, 2)} of raw (the floor's CPU on every core, none idle)`);
  log(`steal ${stealSeconds.toFixed(1)} s over every measured phase (counted as nobody's CPU)`);
  if (cpuRatio) log(formatGoal('cpu_ratio', cpuRatio, REPLAY_GOALS.cpuRatio, 2));
  if (replay) log(formatGoal('busy', busy, REPLAY_GOALS.busy, 2));
  else log(`busy ${formatFigure(busy, 2)}`);
  const rssLine = formatGoal('rss', rss, REPLAY_GOALS.rssMb, 0, 'MB');
  log(target === 1_000_000 ? rssLine : `${rssLine} (the goal is for 1,000,000 places)`);

  const round0 = (value: Figure) => Math.round(value.median);
  const round3 = (value: Figure) => Number(value.median.toFixed(3));
  return {
    ours: round0(oursRate),
    raw: round0(rawRate),
    unit: 'docs/s',
    ratio: round3(ratio),
    ...(floorRate && ratioFloor ? { floor: round0(floorRate), ratio_floor: round3(ratioFloor) } : {}),
    ...(foldCpu && bestRatio
      ? { fold_cpu_s: Number(foldCpu.median.toFixed(1)), best_ratio: round3(bestRatio) }
      : {}),
    peak_rss_mb: round0(rss),
    ...(cpuRatio ? { cpu_ratio: round3(cpuRatio), cpu_ratio_range: roundedRange(cpuRatio, 3) } : {}),
    busy: round3(busy),
    busy_range: roundedRange(busy, 3),
    rss_mb: round0(rss),
    rss_mb_range: roundedRange(rss, 0),
    ours_range: roundedRange(oursRate, 0),
    raw_range: roundedRange(rawRate, 0),
    ...(floorRate ? { floor_range: roundedRange(floorRate, 0) } : {}),
    rounds,
    steal_s: Number(stealSeconds.toFixed(1)),
  };
}

/**
 * Freshness during a replay: the worker and the API run on the bench's store and alias, a live ingest
 * renames one place at a time, and replays run back to back until `--live-seconds` have passed (at
 * least one). The freshness of every rename sent while a replay ran.
 */
async function measureLiveIngest(): Promise<Record<string, unknown>> {
  log(`\nlive ingest during a replay: ${live.rate} events/s`);
  // Before the worker starts: its own writes to `places` would deadlock with an update of every row.
  await storeAsAnOlderFold();
  const pipeline = await startLivePipeline(environment, live.places);
  try {
    // The same live ingest with no replay first: what the machine gives it otherwise.
    const baselineRun = await measureFreshness(pipeline, {
      rate: live.rate,
      keepSending: (sent) => sent < live.baselineSeconds * live.rate,
      backgroundReaders: 0,
    });
    const baseline = freshnessPercentiles(baselineRun, { countMissed: true });
    log(
      `freshness with no replay (${live.baselineSeconds} s): ${baselineRun.events} events, p50 ${baseline.p50} ms, ` +
        `p99 ${baseline.p99} ms, max ${baseline.max} ms; ${baselineRun.missed} not found within ${GIVE_UP_MS / 1000} s`,
    );
    log(`  where it went: ${summarizeStages(baselineRun.found)}`);
    await environment.settle();
    const names = { self: 'bench', child: 'worker and api' };
    const pipelinePids = pipeline.pids;
    const before = snapshotParticipants(pipelinePids, names);
    const started = performance.now();
    const until = started + live.seconds * 1000;
    let replaying = true;
    const replays: Array<{ seconds: number; output: string }> = [];
    // When each replay began, ended its load and swapped its alias, to place the slowest events.
    const replayMoments: ReplayMoments[] = [];
    const replaysDone = (async () => {
      try {
        do {
          const began = performance.now();
          const reindex = startOurReindex();
          const moment: ReplayMoments = { began, phases: {} };
          replayMoments.push(moment);
          for (const phase of REPLAY_PHASES)
            reindex
              .waitForOutput(new RegExp(`^${phase}: `, 'm'), 30 * 60_000)
              .then(() => (moment.phases[phase] = performance.now()))
              .catch(() => undefined);
          const exitCode = await reindex.exited;
          if (exitCode !== 0) throw new Error(`reindex failed:\n${reindex.output()}`);
          replays.push({ seconds: (performance.now() - began) / 1000, output: reindex.output() });
        } while (performance.now() < until);
      } finally {
        replaying = false;
      }
    })();
    const freshness = measureFreshness(pipeline, {
      rate: live.rate,
      keepSending: () => replaying,
      backgroundReaders: 0,
    });
    const [replayOutcome, freshnessOutcome] = await Promise.allSettled([replaysDone, freshness]);
    if (replayOutcome.status === 'rejected') throw replayOutcome.reason;
    if (freshnessOutcome.status === 'rejected') throw freshnessOutcome.reason;
    const run: FreshnessRun = freshnessOutcome.value;
    const seconds = (performance.now() - started) / 1000;
    const after = snapshotParticipants(pipelinePids, names);

    for (const { seconds: replaySeconds, output } of replays)
      log(`replay with live ingest: ${replaySeconds.toFixed(1)} s; ${/done in .*/.exec(output)?.[0] ?? ''}`);
    log(`slowest events, against the replay's start and its phases (each phase's line seen in its output):`);
    for (const event of slowestFound(run.found, 5)) log(`  ${describeAgainstReplays(event, replayMoments)}`);
    if (before && after)
      log(`       ${formatCpu(participantsBetween(before, after, 'reindex'), seconds, cores)}`);
    // An event never found counts as found at the give-up time: misses must not flatter the p99.
    const { p50, p99, max } = freshnessPercentiles(run, { countMissed: true });
    log(
      `freshness during the replay: ${run.latencies.length} of ${run.events} events searchable, p50 ${p50} ms, ` +
        `p99 ${p99} ms, max ${max} ms; ${run.missed} not found within ${GIVE_UP_MS / 1000} s (counted as ` +
        `${GIVE_UP_MS / 1000} s)`,
    );
    log(`  where it went: ${summarizeStages(run.found)}`);
    const p99Figure = figure([p99]);
    log(formatGoal('freshness p99', p99Figure, REPLAY_GOALS.freshnessP99Ms, 0, 'ms'));
    if (!goalMet(p99, REPLAY_GOALS.freshnessP99Ms))
      log(
        '       (freshness over its goal: the replay and the worker compete for PostgreSQL and Elasticsearch)',
      );
    return {
      ...(pauseMs === undefined ? {} : { replay_pause_ms: Number(pauseMs) }),
      freshness_baseline_p99_ms: baseline.p99,
      freshness_p50_ms: p50,
      freshness_p99_ms: p99,
      freshness_max_ms: max,
      freshness_events: run.events,
      freshness_missed: run.missed,
      live_replays: replays.length,
    };
  } finally {
    await pipeline.stop();
  }
}
