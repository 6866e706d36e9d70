// What `bench:scale` measures on one store: search and gets through the API against the same requests
// straight to Elasticsearch, a changes feed page, the export of the largest dataset, a replay, and the
// bytes the store takes (its ingest batch: scale-ingest.ts). Each reuses the other benches' parts.
import { availableParallelism } from 'node:os';
import { sql } from 'kysely';
import type { Database } from '@directory/database';
import type { CountryCode } from '@directory/domain';
import { processMemoryKilobytes } from '@directory/observability';
import {
  apiFeedClient,
  apiSearchClient,
  exportDataset,
  rawSearchClient,
  runFeedPhase,
  runPhase,
  storeFeedClient,
  summarize,
} from './api-clients.js';
import { feedWorkload } from './api-workload.js';
import { readSearchCacheOutcomes, type RunningApi } from './bench-api.js';
import { log, runConcurrently, type BenchEnvironment, type PhaseRun } from './bench-environment.js';
import {
  measured,
  reindexPeakRssMb,
  REPLAY_ENGINES,
  runReindex,
  runReindexInStretches,
  runReplayFloor,
} from './reindex-process.js';
import { formatCpu, measureClientPhase, type CpuUsage } from './cpu-usage.js';
import { participantSeconds } from './participant-cpu.js';
import { describeReads, snapshotReads, type ReadsSnapshot } from './phase-reads.js';
import {
  formatStatementTime,
  resetStatementTimes,
  startStatementTimes,
  statementTimes,
} from './statement-times.js';
import { busyShare, replayCpuRatio } from './replay-figures.js';
import { alternateRounds, resultsOf } from './rounds.js';
import {
  cpuMsPerRequest,
  workloadFigures,
  type ExportFigures,
  type PhaseLatency,
  type ReplayFigures,
  type StorageFigures,
  type WorkloadFigures,
} from './scale-figures.js';
import {
  SCALE_WORKLOADS,
  scaleWorkload,
  suggestSequences,
  type SampledRecord,
  type SearchPhasePart,
} from './scale-workloads.js';
import {
  addOutcomes,
  formatCacheOutcomes,
  outcomesBetween,
  type CacheOutcomes,
} from './search-cache-outcomes.js';
import { apiSuggestClient, rawSuggestClient, runSuggestPhase } from './suggest-clients.js';

export type SearchOptions = {
  requests: number;
  concurrency: number;
  rounds: number;
  seed: number;
  /** The parts of the search phase to run (`--workloads`). */
  parts: ReadonlySet<SearchPhasePart>;
};

/** Served records spread over the store (by a hash of their id), for the workloads to draw from. */
export async function sampleServedRecords(
  environment: BenchEnvironment,
  count: number,
): Promise<SampledRecord[]> {
  const result = await sql<{
    id: string;
    country: CountryCode;
    citySlug: string;
    name: string;
    lat: number | null;
    lon: number | null;
    displayName: string | null;
    cityName: string | null;
    specialtyCodes: string[] | null;
  }>`
    select place_id as id, document->>'country' as country, document->>'citySlug' as "citySlug",
           document->>'sortName' as name, (document->'location'->>'lat')::float8 as lat,
           (document->'location'->>'lon')::float8 as lon, document->'doctor'->>'name' as "displayName",
           document->>'cityName' as "cityName", document->'specialtyCodes' as "specialtyCodes"
    from places
    -- The ids first: the fields of only the picked documents are read (a select list is worked out for
    -- every row before the sort, over a million documents longer than the statement timeout).
    where place_id in (select place_id from places where served order by md5(place_id) limit ${count})
    order by md5(place_id)`.execute(environment.db);
  return result.rows.map((row) => ({
    id: row.id,
    country: row.country,
    citySlug: row.citySlug,
    // The name's longest word: a literal `q` that finds this record and a few like it.
    nameWord: row.name
      .split(/\s+/)
      .reduce((longest, word) => (word.length > longest.length ? word : longest), ''),
    location: row.lat === null || row.lon === null ? null : { lat: row.lat, lon: row.lon },
    name: row.displayName ?? '',
    cityName: row.cityName,
    specialtyCodes: row.specialtyCodes ?? [],
  }));
}

/** A side's round; ours also with what its hot-query cache answered meanwhile. */
type MeasuredRun = { run: PhaseRun; cpu: CpuUsage; cache?: CacheOutcomes };

const latencyOf = ({ run, cpu }: MeasuredRun): PhaseLatency => {
  const { rps, p50, p99 } = summarize(run);
  return { rps, p50, p99, cpuMs: cpuMsPerRequest(cpu.byPart, run.latencies.length) };
};

/**
 * Ours and raw, alternating over the rounds after one unmeasured run of each. `inputOf` gets the round
 * (-1 for the warm-up), so each round can send requests of its own: the API's hot-query cache may keep
 * what is popular across rounds, as in production, but never a whole replayed sequence. A round's input
 * is drawn once, before either side's measured phase: drawing it is the bench's work, not a side's.
 */
async function compareSides<Input>(
  api: RunningApi,
  rounds: number,
  inputOf: (round: number) => Input,
  runSide: (side: 'ours' | 'raw', input: Input) => Promise<PhaseRun>,
): Promise<WorkloadFigures> {
  const inputs = new Map<number, Input>();
  const roundInput = (round: number): Input => {
    if (!inputs.has(round)) inputs.set(round, inputOf(round));
    return inputs.get(round) as Input;
  };
  const measure = (side: 'ours' | 'raw', round: number) => {
    const input = roundInput(round);
    return measureClientPhase(api.process.child.pid, () => runSide(side, input));
  };
  const done = await alternateRounds<MeasuredRun>({
    rounds,
    sides: [
      {
        name: 'ours',
        // The counters are read outside the measured phase: a read costs the API CPU of its own.
        run: async (round: number) => {
          const before = await readSearchCacheOutcomes(api);
          const measuredRun = await measure('ours', round);
          return { ...measuredRun, cache: outcomesBetween(before, await readSearchCacheOutcomes(api)) };
        },
      },
      { name: 'raw', run: (round: number) => measure('raw', round) },
    ],
    warmup: async () => {
      await runSide('raw', roundInput(-1));
      await runSide('ours', roundInput(-1));
    },
  });
  const ours = resultsOf(done, 'ours');
  const raw = resultsOf(done, 'raw');
  const figures = workloadFigures(
    ours.map((each, index) => ({ ours: latencyOf(each), raw: latencyOf(raw[index] as MeasuredRun) })),
  );
  return {
    ...figures,
    cache: {
      outcomes: addOutcomes(ours.map((each) => each.cache ?? {})),
      requests: ours.reduce((sum, each) => sum + each.run.latencies.length, 0),
    },
  };
}

/** The workloads of scale-workloads.ts that `options.parts` names, and the typeahead, ours against raw. */
export async function measureSearch(
  environment: BenchEnvironment,
  api: RunningApi,
  sample: ReadonlyArray<SampledRecord>,
  options: SearchOptions,
): Promise<Record<string, WorkloadFigures>> {
  const clients = { ours: apiSearchClient(api), raw: rawSearchClient(environment) };
  const figures: Record<string, WorkloadFigures> = {};
  for (const workload of SCALE_WORKLOADS.filter((part) => options.parts.has(part))) {
    // Both sides of a round send the same requests; every round draws its own.
    figures[workload] = await compareSides(
      api,
      options.rounds,
      (round) => scaleWorkload(workload, sample, options.requests, options.seed + round),
      (side, tasks) => runPhase(clients[side], tasks, options.concurrency),
    );
    log(`  ${formatWorkload(workload, figures[workload])}`);
  }
  if (options.parts.has('suggest')) figures.suggest = await measureSuggest(environment, api, sample, options);
  return figures;
}

/**
 * The typeahead: users typing the sampled records' names, cities and specialty labels, one
 * `/suggest` per keystroke, against the route's own requests straight to Elasticsearch; `requests`
 * keystrokes a round.
 */
export async function measureSuggest(
  environment: BenchEnvironment,
  api: RunningApi,
  sample: ReadonlyArray<SampledRecord>,
  options: SearchOptions,
): Promise<WorkloadFigures> {
  const clients = { ours: apiSuggestClient(api), raw: rawSuggestClient(environment) };
  const figures = await compareSides(
    api,
    options.rounds,
    (round) => suggestSequences(sample, options.requests, options.seed + round),
    (side, sequences) => runSuggestPhase(clients[side], sequences, options.concurrency),
  );
  log(`  ${formatWorkload('suggest (one keystroke)', figures)}`);
  return figures;
}

/**
 * The API's floor: what any keyed request costs before its route does anything (the key checked, both
 * quota windows counted in Redis, the request logged, the answer written), as `GET /key` at the
 * workloads' concurrency. A workload whose own Elasticsearch work costs little (a keystroke) cannot
 * spend less than this on our side.
 */
export async function measureKeyedFloor(api: RunningApi, options: SearchOptions): Promise<void> {
  const requests = Array.from({ length: options.requests }, (_, index) => index);
  const getKey = async () => {
    const response = await fetch(`${api.base}/key`, { headers: api.headers });
    if (!response.ok) throw new Error(`GET /key: HTTP ${response.status}`);
    await response.arrayBuffer();
  };
  await runConcurrently(requests.slice(0, 100), options.concurrency, (_, timed) => timed(getKey));
  const floor = latencyOf(
    await measureClientPhase(api.process.child.pid, () =>
      runConcurrently(requests, options.concurrency, (_, timed) => timed(getKey)),
    ),
  );
  log(
    `  the API's floor (GET /key): ${formatLatency(floor)}\n    cpu ms a request: ${formatCpuMs(floor.cpuMs)}`,
  );
}

/** Feed consumers' pages through the API against the same reads straight from PostgreSQL. */
export async function measureFeed(
  environment: BenchEnvironment,
  api: RunningApi,
  options: SearchOptions,
): Promise<WorkloadFigures> {
  const feeds = { ours: apiFeedClient(api), raw: storeFeedClient(environment) };
  const tasks = feedWorkload(options.requests);
  const figures = await compareSides(
    api,
    options.rounds,
    () => tasks,
    (side, sameTasks) => runFeedPhase(feeds[side], sameTasks, options.concurrency),
  );
  log(`  ${formatWorkload('changes feed page', figures)}`);
  return figures;
}

export function formatWorkload(name: string, figures: WorkloadFigures): string {
  const { ours, raw, ratio, cache } = figures;
  const cacheLine = cache && formatCacheOutcomes(cache.outcomes, cache.requests);
  return (
    `${name}: ours ${formatLatency(ours)}; raw ${formatLatency(raw)}; ours ÷ raw ${ratio.toFixed(2)}\n` +
    `    cpu ms a request: ours ${formatCpuMs(ours.cpuMs)}; raw ${formatCpuMs(raw.cpuMs)}` +
    (cacheLine ? `\n    our hot-query cache: ${cacheLine}` : '')
  );
}

/** How often the export's API RSS and the store's oldest transaction are sampled. */
const SAMPLE_EVERY_MS = 100;

/** The dataset with the most served records, exported through the API while its costs are sampled. */
export async function measureExport(
  environment: BenchEnvironment,
  api: RunningApi,
): Promise<ExportFigures | undefined> {
  const largest = await sql<{ country: string }>`
    select document->>'country' as country from places where served
    group by 1 order by count(*) desc limit 1`.execute(environment.db);
  const country = largest.rows[0]?.country;
  const pid = api.process.child.pid;
  if (country === undefined || pid === undefined) return undefined;
  let apiRssMb = 0;
  let longestTransactionSeconds = 0;
  const sample = async (): Promise<void> => {
    apiRssMb = Math.max(apiRssMb, residentMb(pid));
    const oldest = await sql<{ seconds: number | null }>`
      select extract(epoch from max(clock_timestamp() - xact_start))::float8 as seconds
      from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
        and xact_start is not null`.execute(environment.db);
    longestTransactionSeconds = Math.max(longestTransactionSeconds, oldest.rows[0]?.seconds ?? 0);
  };
  let exporting = true;
  const sampling = (async () => {
    while (exporting) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  })();
  const started = performance.now();
  try {
    const records = await exportDataset(api, country);
    const seconds = (performance.now() - started) / 1000;
    log(
      `  export of ${country}: ${records} records in ${seconds.toFixed(1)} s = ${(records / seconds).toFixed(0)} records/s; ` +
        `API RSS up to ${apiRssMb.toFixed(0)} MB; longest open transaction ${longestTransactionSeconds.toFixed(2)} s`,
    );
    return { records, seconds, apiRssMb, longestTransactionSeconds };
  } finally {
    exporting = false;
    await sampling;
  }
}

/** A process' resident set now, from /proc (0 once it has exited). */
function residentMb(pid: number): number {
  return (processMemoryKilobytes(pid, 'VmRSS') ?? 0) / 1024;
}

/** `reindex`: the projection of the whole store into a new index, swapped in; seconds and peak RSS. */
export async function project(environment: BenchEnvironment): Promise<{ seconds: number; rssMb: number }> {
  await environment.settle();
  const { value: output, seconds } = await measured('reindex', () => runReindex(environment));
  return { seconds, rssMb: reindexPeakRssMb(output) };
}

/**
 * `reindex --replay`: every place refolded from the event store; then the replay's floor on the same
 * store (bench/replay-floor.cli.ts, as `bench:reindex --replay` runs it), for the replay's CPU ÷ the
 * floor's.
 */
export async function measureReplay(environment: BenchEnvironment, lanes?: number): Promise<ReplayFigures> {
  await environment.settle();
  const laneArgs = lanes === undefined ? [] : ['--replay-lanes', String(lanes)];
  const statementsCounted = await startStatementTimes(environment.db);
  const beforeReplay = await snapshotReads(environment.db);
  // The merge and the checks after it apart from the load: the floor does neither.
  const { output, seconds, cpu, stretches } = await runReindexInStretches(
    environment,
    ['--replay', ...laneArgs],
    'load',
    [
      { stretch: 'merge', line: /^merge: /m },
      { stretch: 'health, verification, swap, catch-up', line: /^health: /m },
    ],
  );
  const cpuSeconds = participantSeconds(cpu, ['reindex', ...REPLAY_ENGINES]);
  const rssMb = reindexPeakRssMb(output);
  const busy = busyShare(cpuSeconds, availableParallelism(), seconds);
  // Before the floor, which takes about as long again: the replay's own figures stand without it.
  log(
    `  replay${lanes === undefined ? '' : ` (${lanes} lanes)`}: ${seconds.toFixed(1)} s, ` +
      `${cpuSeconds.toFixed(1)} CPU s, busy ${busy.toFixed(2)}, peak RSS ${rssMb} MB`,
  );
  const beforeFloor = await snapshotReads(environment.db);
  logWhereItWent('replay', cpu, seconds, beforeReplay, beforeFloor);
  for (const { stretch, seconds: stretchSeconds, cpu: engines } of stretches) {
    const byEngine = [...engines.byPart].map(([part, partSeconds]) => `${part} ${partSeconds.toFixed(2)}`);
    log(
      `  replay's ${stretch}, ${stretchSeconds.toFixed(1)} s: cpu seconds ${byEngine.join(' · ')} ` +
        `(machine busy ${engines.busySeconds.toFixed(2)}, iowait ${engines.iowaitSeconds.toFixed(2)})`,
    );
  }
  if (statementsCounted) await logStatementTimes('replay', environment.db);
  const floor = await runReplayFloor(environment);
  log(
    `  floor: ${floor.output.documents} docs in ${floor.seconds.toFixed(1)} s, ${floor.cpuSeconds.toFixed(1)} CPU s ` +
      `against the replay's ${cpuSeconds.toFixed(1)} CPU s`,
  );
  logWhereItWent('floor', floor.cpu, floor.seconds, beforeFloor, await snapshotReads(environment.db));
  if (statementsCounted) await logStatementTimes('floor', environment.db);
  return {
    seconds,
    rssMb,
    busy,
    cpuRatio: replayCpuRatio({ cpuSeconds }, floor),
  };
}

/** How many statements a phase's profile shows. */
const STATEMENTS_SHOWN = 8;

/** The statements that took most of a phase's time in PostgreSQL; the count starts again after it. */
async function logStatementTimes(phase: string, db: Database): Promise<void> {
  for (const statement of await statementTimes(db, STATEMENTS_SHOWN)) {
    log(`  ${phase}'s statement: ${formatStatementTime(statement)}`);
  }
  await resetStatementTimes(db);
}

/** A phase's CPU by part (with its iowait) and what it read, from the disk and into PostgreSQL's buffers. */
function logWhereItWent(
  phase: string,
  cpu: CpuUsage,
  seconds: number,
  before: ReadsSnapshot,
  after: ReadsSnapshot,
): void {
  log(`  ${phase} ${formatCpu(cpu, seconds)}`);
  log(`  ${phase} ${describeReads(before, after)}`);
}

/** The events and places tables with their indexes, and the alias' indices in Elasticsearch. */
export async function measureStorage(environment: BenchEnvironment): Promise<StorageFigures> {
  const result = await sql<{ events: string; places: string; eventsBytes: string; placesBytes: string }>`
    select (select count(*) from events)::text as events, (select count(*) from places)::text as places,
           pg_total_relation_size('events')::text as "eventsBytes",
           pg_total_relation_size('places')::text as "placesBytes"`.execute(environment.db);
  const row = result.rows[0];
  const stats = await environment.client.indices.stats({
    index: `${environment.alias}*`,
    metric: 'store',
    expand_wildcards: 'all',
  });
  return {
    events: Number(row?.events ?? 0),
    places: Number(row?.places ?? 0),
    eventsBytes: Number(row?.eventsBytes ?? 0),
    placesBytes: Number(row?.placesBytes ?? 0),
    searchBytes: stats._all.total?.store?.size_in_bytes ?? 0,
  };
}

function formatLatency({ p50, p99, rps }: PhaseLatency): string {
  return `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ${rps.toFixed(0)} req/s`;
}

function formatCpuMs(cpuMs: Record<string, number>): string {
  return Object.entries(cpuMs)
    .map(([part, ms]) => `${part} ${ms.toFixed(2)}`)
    .join(' · ');
}
