// The figures `bench:scale` derives from what it measured at each store size, and its JSON summary.
// Pure: the benchmark measures, this computes.
import { median } from './rounds.js';
import { answeredShare, type CacheOutcomes } from './search-cache-outcomes.js';

/**
 * One side's phase of one round: requests per second, latency percentiles (ms), and the CPU ms a request
 * of each part (the bench's client, the API, Elasticsearch, Redis, PostgreSQL): on two shared cores, the
 * ratio of the sides' throughputs is the ratio of their CPU budgets.
 */
export type PhaseLatency = { rps: number; p50: number; p99: number; cpuMs: Record<string, number> };

/**
 * A workload at one size: each side's medians over the rounds, and the median of ours ÷ raw (req/s);
 * with how the API's hot-query cache answered our side's searches over all its measured rounds.
 */
export type WorkloadFigures = {
  ours: PhaseLatency;
  raw: PhaseLatency;
  ratio: number;
  cache?: { outcomes: CacheOutcomes; requests: number };
};

export type ExportFigures = {
  records: number;
  seconds: number;
  /** The API process' largest resident set seen during the export. */
  apiRssMb: number;
  /** The oldest transaction open on the store during the export. */
  longestTransactionSeconds: number;
};

export type ReplayFigures = {
  seconds: number;
  rssMb: number;
  /** Participants' CPU over cores × wall time. */
  busy: number;
  /** The replay's CPU ÷ the floor's (the fold and the bulk writes alone), when the floor ran. */
  cpuRatio: number | null;
};

export type StorageFigures = {
  events: number;
  places: number;
  /** Bytes of the events table with its indexes, and of the places table with its indexes. */
  eventsBytes: number;
  placesBytes: number;
  /** Bytes of the Elasticsearch indices the alias' prefix holds (primaries and replicas). */
  searchBytes: number;
};

/** Everything measured at one store size; a phase that did not run is absent. */
export type StepFigures = {
  places: number;
  storage: StorageFigures;
  /** Events per second through the real pipeline: the fixed batch, or batches for `--ingest-seconds`. */
  ingestEventsPerSecond?: number;
  search: Record<string, WorkloadFigures>;
  feed?: WorkloadFigures;
  export?: ExportFigures;
  replay?: ReplayFigures;
};

/** CPU ms a request of each part that used any, from its CPU seconds over a phase of `requests` requests. */
export function cpuMsPerRequest(
  secondsByPart: ReadonlyMap<string, number>,
  requests: number,
): Record<string, number> {
  if (requests === 0) return {};
  return Object.fromEntries(
    [...secondsByPart]
      .filter(([, seconds]) => seconds > 0)
      .map(([part, seconds]) => [part, (seconds * 1000) / requests]),
  );
}

/** Each side's medians over the rounds, and the median of each round's ours ÷ raw requests per second. */
export function workloadFigures(
  rounds: ReadonlyArray<{ ours: PhaseLatency; raw: PhaseLatency }>,
): WorkloadFigures {
  const medians = (side: 'ours' | 'raw'): PhaseLatency => {
    const parts = new Set(rounds.flatMap((round) => Object.keys(round[side].cpuMs)));
    return {
      rps: median(rounds.map((round) => round[side].rps)),
      p50: median(rounds.map((round) => round[side].p50)),
      p99: median(rounds.map((round) => round[side].p99)),
      cpuMs: Object.fromEntries(
        [...parts].map((part) => [part, median(rounds.map((round) => round[side].cpuMs[part] ?? 0))]),
      ),
    };
  };
  return {
    ours: medians('ours'),
    raw: medians('raw'),
    ratio: median(rounds.map((round) => round.ours.rps / round.raw.rps)),
  };
}

/** The places that search growth is measured from: a store of 100,000 places. */
export const GROWTH_BASELINE_PLACES = 100_000;

/** The non-empty step nearest GROWTH_BASELINE_PLACES places (the smallest on a tie), if any. */
export function growthBaseline(steps: ReadonlyArray<StepFigures>): StepFigures | undefined {
  const distance = (step: StepFigures) => Math.abs(Math.log(step.places / GROWTH_BASELINE_PLACES));
  return steps
    .filter((step) => step.places > 0)
    .reduce<StepFigures | undefined>(
      (best, step) => (best === undefined || distance(step) < distance(best) ? step : best),
      undefined,
    );
}

/** The worst workload's p99 at the full size ÷ its p99 at the baseline size. */
export function searchP99Growth(full: StepFigures, baseline: StepFigures): number | null {
  const growths = Object.entries(full.search).flatMap(([workload, figures]) => {
    const before = baseline.search[workload];
    return before === undefined || before.ours.p99 <= 0 ? [] : [figures.ours.p99 / before.ours.p99];
  });
  return growths.length === 0 ? null : Math.max(...growths);
}

/** The worst workload's ours ÷ raw (requests per second) at one size. */
export function searchRatioMin(step: StepFigures): number | null {
  const ratios = Object.values(step.search).map((figures) => figures.ratio);
  return ratios.length === 0 ? null : Math.min(...ratios);
}

export function bytesPerEvent(storage: StorageFigures): number | null {
  return storage.events === 0 ? null : storage.eventsBytes / storage.events;
}

/** A place's rows in PostgreSQL and its document in Elasticsearch. */
export function bytesPerPlace(storage: StorageFigures): number | null {
  return storage.places === 0 ? null : (storage.placesBytes + storage.searchBytes) / storage.places;
}

const rounded = (value: number | null | undefined, digits: number): number | null =>
  value === null || value === undefined ? null : Number(value.toFixed(digits));

/**
 * The last line's object: the full size's figures against the empty store's (ingest) and the baseline's
 * (search), `null` for what was not measured. Steps are in order of size, the full one last.
 */
export function scaleSummary(steps: ReadonlyArray<StepFigures>): Record<string, number | null> {
  const full = steps.at(-1);
  if (full === undefined) throw new Error('no store size was measured');
  const empty = steps.find((step) => step.places === 0);
  const baseline = growthBaseline(steps.slice(0, -1)) ?? full;
  const ingestRatio =
    full.ingestEventsPerSecond !== undefined && empty?.ingestEventsPerSecond !== undefined
      ? full.ingestEventsPerSecond / empty.ingestEventsPerSecond
      : null;
  return {
    places: full.places,
    events: full.storage.events,
    growth_baseline_places: baseline.places,
    ingest_ratio_full_vs_empty: rounded(ingestRatio, 3),
    search_p99_growth: rounded(searchP99Growth(full, baseline), 3),
    search_ratio_min: rounded(searchRatioMin(full), 3),
    suggest_cache_answered: rounded(
      full.search.suggest?.cache && answeredShare(full.search.suggest.cache.outcomes),
      3,
    ),
    export_records_per_s: rounded(full.export && full.export.records / full.export.seconds, 0),
    export_api_rss_mb: rounded(full.export?.apiRssMb, 0),
    export_longest_tx_s: rounded(full.export?.longestTransactionSeconds, 2),
    replay_rss_mb: rounded(full.replay?.rssMb, 0),
    replay_busy: rounded(full.replay?.busy, 3),
    replay_cpu_ratio: rounded(full.replay?.cpuRatio, 3),
    bytes_per_event: rounded(bytesPerEvent(full.storage), 0),
    bytes_per_place: rounded(bytesPerPlace(full.storage), 0),
  };
}
