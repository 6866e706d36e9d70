// `npm run bench:api [-- --records N --requests N --concurrency C --mix uniform|zipf|relevance|facets --rounds R]`:
// search (mixed filters, pages 1..N via cursors) and get-by-id through the full API over HTTP, against the identical
// Elasticsearch requests sent directly, with the same concurrency, in the same run, on ≥100k served records.
// About one search in six is a geo search (near a city, some with a radius), sorted by distance.
// `--mix zipf` draws the same kinds of request from skewed popularity instead, as real directory
// traffic is: Zipf over countries, cities, q terms, page depth and the records fetched by id, so the
// first page of a popular search comes again and again (what the API's hot-query cache is for).
// Then the changes feed: full reads of a dataset's feed through the API against the same
// feed query sent straight to PostgreSQL, on the same records stored as the worker stores them.
// `--mix relevance` sends `sort=relevance` searches (names, types, cities, typos and half-typed words, a
// page or two deep): the same scored requests go straight to Elasticsearch on the raw side.
// `--mix facets` sends the uniform mix's searches (no gets) with 1–4 facets each, ours against the same
// aggregation requests straight to Elasticsearch, and a third side: ours with searches of the same mix
// (drawn apart) without facets, what the facets cost is measured against.
// The records and the requests are drawn in api-workload.ts.
// It prints the machine and the engines' settings first; then ours and raw run in R rounds (default 3)
// after a warm-up, their order alternating from round to round; each round is printed, then the median
// and range of each figure over the rounds (bench/api-figures.ts), and the goals of `--mix zipf` and
// `--mix facets`.
import { parseArgs } from 'node:util';
import { type RunningProcess } from '@directory/testing';
import {
  facetsWorkload,
  feedWorkload,
  relevanceWorkload,
  withoutFacets,
  workload,
  zipfWorkload,
  type Task,
} from './api-workload.js';
import { readSearchCacheOutcomes, startApi } from './bench-api.js';
import { createBenchEnvironment, log, type PhaseRun } from './bench-environment.js';
import { indexServedRecords, storeServedRecords } from './served-records.js';
import {
  apiFeedClient,
  apiSearchClient,
  rawSearchClient,
  runFeedPhase,
  runPhase,
  storeFeedClient,
  summarize,
  type Client,
  type FeedClient,
} from './api-clients.js';
import { NO_CPU, addCpu, formatCpu, measureClientPhase, type CpuUsage } from './cpu-usage.js';
import { describeMachine } from './machine.js';
import {
  alternateRounds,
  figure,
  formatFigure,
  parseRounds,
  type Figure,
  resultsOf,
  roundedRange,
  ROUNDS_OPTION,
} from './rounds.js';
import {
  apiRoundFigures,
  facetsCost,
  facetsGoals,
  formatApiFigures,
  formatApiRound,
  zipfGoals,
  type ApiRound,
  type ApiRoundFigures,
  type PhaseSummary,
} from './api-figures.js';

type BenchOptions = {
  records: number;
  requestsPerPhase: number;
  concurrency: number;
  mix: Mix;
  /** Measured rounds of each comparison, ours and raw alternating their order (default 3). */
  rounds: number;
};

const MIXES = ['uniform', 'zipf', 'relevance', 'facets'] as const;
type Mix = (typeof MIXES)[number];

function parseOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      records: { type: 'string', default: '100000' },
      requests: { type: 'string', default: '4000' },
      concurrency: { type: 'string', default: '16' },
      mix: { type: 'string', default: 'uniform' },
      rounds: ROUNDS_OPTION,
    },
  });
  const mix = MIXES.find((name) => name === values.mix);
  if (mix === undefined) throw new Error(`--mix must be one of ${MIXES.join(', ')}`);
  return {
    records: Number(values.records),
    requestsPerPhase: Number(values.requests),
    concurrency: Number(values.concurrency),
    mix,
    rounds: parseRounds(values.rounds),
  };
}

/** One side's measured phases, added up: every latency, the wall seconds, and where the CPU went. */
type SideFigures = { latencies: number[]; seconds: number; cpu: CpuUsage };
/**
 * Each round's comparison, and both sides' phases added up over the rounds; for the facets mix, also each
 * round's phase of ours with searches of the same mix without facets (`plain`, else empty).
 */
type SearchComparison = { rounds: ApiRound[]; ours: SideFigures; raw: SideFigures; plain: PhaseSummary[] };

/** One side's phase of one round: its requests' latencies and seconds, and where the CPU went meanwhile. */
type MeasuredPhase = { run: PhaseRun; cpu: CpuUsage };

/**
 * Both sides send the same requests in each round, after a warm-up of each; the order of the sides
 * alternates from round to round so drift in the machine's load affects both alike.
 */
async function measureSearchAndGet(
  options: BenchOptions,
  apiPid: number | undefined,
  sides: { ours: Client; raw: Client },
): Promise<SearchComparison> {
  const { mix, records, requestsPerPhase, concurrency } = options;
  const requestsFor = (count: number): Task[] =>
    mix === 'zipf'
      ? zipfWorkload(count, records)
      : mix === 'relevance'
        ? relevanceWorkload(count)
        : mix === 'facets'
          ? facetsWorkload(count)
          : workload(count, records);
  // Each round draws its own requests from the mix (both sides of a round send the same ones): a cache
  // may keep what is popular across rounds, as in production, but never a whole replayed sequence.
  const roundTasks = Array.from({ length: options.rounds }, () => requestsFor(requestsPerPhase));
  const side = (name: 'ours' | 'raw') => ({
    name,
    run: (round: number) =>
      measureClientPhase(apiPid, () => runPhase(sides[name], roundTasks[round] ?? [], concurrency)),
  });
  // The facets mix's draws are searches only; `plain` sends searches of the same mix through ours without
  // their facets. Drawn apart from the round's own: a faceted search's page is the plain search's request,
  // so with the same draws whichever of the two phases ran second would find its pages in the hot-query
  // cache (the cost read 0.68 with plain first and 1.79–2.49 with it second).
  const plainTasks = mix === 'facets' ? roundTasks.map(() => requestsFor(requestsPerPhase)) : [];
  const plain = {
    name: 'plain',
    run: (round: number) =>
      measureClientPhase(apiPid, () =>
        runPhase(sides.ours, withoutFacets(plainTasks[round] ?? []), concurrency),
      ),
  };
  const rounds = await alternateRounds<MeasuredPhase>({
    rounds: options.rounds,
    sides: mix === 'facets' ? [side('ours'), plain, side('raw')] : [side('ours'), side('raw')],
    // One untimed round's worth a side: the engines' caches and JIT, and ours' hot-query cache, reach
    // the steady state the rounds measure (500 requests left the zipf mix's first round cold).
    warmup: async () => {
      log(`warming up (${requestsPerPhase} requests a side)`);
      const tasks = requestsFor(requestsPerPhase);
      await runPhase(sides.raw, tasks, concurrency);
      await runPhase(sides.ours, requestsFor(requestsPerPhase), concurrency);
      if (mix === 'facets') await runPhase(sides.ours, withoutFacets(tasks), concurrency);
    },
    afterRound: ({ round, order, results }) => {
      const phase = (name: string) => summarizePhase(results.get(name) as MeasuredPhase);
      log(formatApiRound(round, order, { ours: phase('ours'), raw: phase('raw') }));
      if (mix === 'facets') log(`  ours without facets p99 ${phase('plain').p99.toFixed(2)} ms`);
    },
  });
  const added = (name: 'ours' | 'raw'): SideFigures => {
    const phases = resultsOf(rounds, name);
    return {
      latencies: phases.flatMap((phase) => phase.run.latencies),
      seconds: phases.reduce((sum, phase) => sum + phase.run.seconds, 0),
      cpu: phases.reduce((sum, phase) => addCpu(sum, phase.cpu), NO_CPU),
    };
  };
  const ours = resultsOf(rounds, 'ours');
  const raw = resultsOf(rounds, 'raw');
  return {
    rounds: ours.map((phase, index) => ({
      ours: summarizePhase(phase),
      raw: summarizePhase(raw[index] as MeasuredPhase),
    })),
    ours: added('ours'),
    raw: added('raw'),
    plain: mix === 'facets' ? resultsOf(rounds, 'plain').map(summarizePhase) : [],
  };
}

function summarizePhase({ run, cpu }: MeasuredPhase): PhaseSummary {
  return { ...summarize(run), stealSeconds: cpu.stealSeconds };
}

/** The facets mix's own figures: what facets cost (ours with ÷ without), and whether each goal holds. */
type FacetsFigures = { cost: Figure; plainP99: Figure; costMet: boolean; ratioMet: boolean };

function printSearchFigures(
  options: BenchOptions,
  search: SearchComparison,
): { figures: ApiRoundFigures; facets: FacetsFigures | undefined } {
  const figures = apiRoundFigures(search.rounds);
  const o = summarize(search.ours);
  const r = summarize(search.raw);
  log(
    `${options.mix} mix: records ${options.records}, concurrency ${options.concurrency}, ` +
      `${search.rounds[0]?.ours.count ?? 0} requests per side and round ` +
      (options.mix === 'facets' ? '(faceted search pages)' : '(search pages + gets)'),
  );
  for (const line of formatApiFigures(figures)) log(line);
  log(`all rounds pooled: ours p99 ${o.p99.toFixed(2)} ms, raw p99 ${r.p99.toFixed(2)} ms`);
  log(`ours ${formatCpu(search.ours.cpu, search.ours.seconds)}`);
  log(`raw  ${formatCpu(search.raw.cpu, search.raw.seconds)}`);
  if (options.mix === 'zipf') for (const goal of zipfGoals(figures)) log(goal.line);
  if (options.mix !== 'facets') return { figures, facets: undefined };
  const plainP99 = figure(search.plain.map((phase) => phase.p99));
  log(`ours without facets: p99 ${formatFigure(plainP99, 2, 'ms')}`);
  const cost = facetsCost(search.rounds, search.plain);
  const goals = facetsGoals(figures, cost);
  log(goals.cost.line);
  log(goals.ratio.line);
  return { figures, facets: { cost, plainP99, costMet: goals.cost.met, ratioMet: goals.ratio.met } };
}

/** Both sides' feed reads added up over the rounds, and ours ÷ raw pages per second in each round. */
type FeedComparison = { ours: PhaseRun; raw: PhaseRun; ratios: number[] };

async function measureChangesFeed(
  options: BenchOptions,
  sides: { ours: FeedClient; raw: FeedClient },
): Promise<FeedComparison> {
  const tasks = feedWorkload(options.requestsPerPhase);
  const rounds = await alternateRounds<PhaseRun>({
    rounds: options.rounds,
    sides: [
      { name: 'ours', run: () => runFeedPhase(sides.ours, tasks, options.concurrency) },
      { name: 'raw', run: () => runFeedPhase(sides.raw, tasks, options.concurrency) },
    ],
    warmup: async () => {
      log('changes feed: warming up');
      await runFeedPhase(sides.raw, tasks, options.concurrency);
      await runFeedPhase(sides.ours, tasks, options.concurrency);
    },
  });
  const added = (runs: PhaseRun[]): PhaseRun => ({
    latencies: runs.flatMap((run) => run.latencies),
    seconds: runs.reduce((sum, run) => sum + run.seconds, 0),
  });
  const ours = resultsOf(rounds, 'ours');
  const raw = resultsOf(rounds, 'raw');
  const ratios = ours.map((run, index) => summarize(run).rps / summarize(raw[index] as PhaseRun).rps);
  return { ours: added(ours), raw: added(raw), ratios };
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The feed's figures, then one JSON line for each comparison; the last line stays the search and get
 * one. Its `ours`, `raw` and `ratio` are medians over the rounds; `p99_ours_ms` and `p99_raw_ms` are the
 * p99 of every round's requests pooled, `p99_ms` and `raw_p99_ms` the medians of each round's p99.
 * The facets mix adds `p99_plain_ms` (searches of the same mix without facets), `facets_p99_cost` (the median of
 * each round's p99 with ÷ without facets) and whether each of its goals holds.
 */
function printFeedAndFigureLines(
  mix: BenchOptions['mix'],
  search: SearchComparison,
  { figures, facets }: ReturnType<typeof printSearchFigures>,
  feed: FeedComparison,
): void {
  const o = summarize(search.ours);
  const r = summarize(search.raw);
  const fo = summarize(feed.ours);
  const fr = summarize(feed.raw);
  log(`changes feed: ${fo.count} pages of 100-1000 changes per side`);
  log(`ours: ${fo.rps.toFixed(0)} pages/s, p50 ${fo.p50.toFixed(2)} ms, p99 ${fo.p99.toFixed(2)} ms`);
  log(`raw:  ${fr.rps.toFixed(0)} pages/s, p50 ${fr.p50.toFixed(2)} ms, p99 ${fr.p99.toFixed(2)} ms`);
  log(`changes feed ratio ours ÷ raw per round, median (min–max): ${formatFigure(figure(feed.ratios))}`);
  console.log(
    JSON.stringify({
      bench: 'api-changes',
      ours: round2(fo.rps),
      raw: round2(fr.rps),
      unit: 'pages/s',
      ratio: round2(fo.rps / fr.rps),
      p99_ours_ms: round2(fo.p99),
      p99_raw_ms: round2(fr.p99),
    }),
  );
  console.log(
    JSON.stringify({
      bench: 'api',
      mix,
      ours: round2(figures.oursRps.median),
      raw: round2(figures.rawRps.median),
      unit: 'req/s',
      ratio: round2(figures.ratio.median),
      p99_ours_ms: round2(o.p99),
      p99_raw_ms: round2(r.p99),
      ratio_range: roundedRange(figures.ratio),
      rounds: figures.rounds,
      p99_ms: round2(figures.oursP99.median),
      raw_p99_ms: round2(figures.rawP99.median),
      p99_le_raw_every_round: figures.p99LeRawEveryRound,
      steal_s: round2(figures.stealSeconds),
      ...(facets === undefined
        ? {}
        : {
            // The facets mix's goals: p99 with facets ÷ without (medians of each round's), and the ratio.
            p99_plain_ms: round2(facets.plainP99.median),
            facets_p99_cost: round2(facets.cost.median),
            facets_p99_cost_range: roundedRange(facets.cost),
            facets_p99_cost_met: facets.costMet,
            ratio_met: facets.ratioMet,
          }),
    }),
  );
}

const options = parseOptions();
const environment = await createBenchEnvironment('api');
let apiProcess: RunningProcess | undefined;
try {
  log((await describeMachine(environment)).block);
  await indexServedRecords(environment, options.records);
  const api = await startApi(environment);
  apiProcess = api.process;
  await storeServedRecords(environment, options.records);
  const search = await measureSearchAndGet(options, api.process.child.pid, {
    ours: apiSearchClient(api),
    raw: rawSearchClient(environment),
  });
  // Printed before the feed phases, so a feed failure cannot lose them.
  const figures = printSearchFigures(options, search);
  const feed = await measureChangesFeed(options, {
    ours: apiFeedClient(api),
    raw: storeFeedClient(environment),
  });
  const cacheOutcomes = await readSearchCacheOutcomes(api);
  await api.process.stop('SIGTERM');
  log(
    `API's requests to Elasticsearch, whole run: ${
      Object.entries(cacheOutcomes)
        .map(([outcome, count]) => `${outcome} ${count}`)
        .join(', ') || 'no search cache (SEARCH_CACHE=off)'
    }`,
  );
  printFeedAndFigureLines(options.mix, search, figures, feed);
} finally {
  // A failed run must not leave its API process behind (it is already stopped on success).
  await apiProcess?.stop('SIGKILL');
  await environment.cleanup();
}
