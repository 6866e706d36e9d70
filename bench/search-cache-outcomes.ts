// How the API's hot-query cache answered the searches a benchmark sent through it, from the API's own
// `search_cache_requests_total{outcome}` counters read before and after a phase. Pure: bench-api.ts reads
// the counters.

/** Lookups of the hot-query cache by outcome: `hit`, `coalesced` (waited for an identical search), `miss`. */
export type CacheOutcomes = Readonly<Record<string, number>>;

// One counter line of the Prometheus text format; the label list cannot hold a `}`, so this is linear.
const COUNTER_LINE = /^search_cache_requests_total\{outcome="(\w+)"[^}\n]*\} (\d+)$/gm;

/** The counters in a `/metrics` text, summed by outcome; empty when the API runs without the cache. */
export function parseCacheOutcomes(metricsText: string): CacheOutcomes {
  const outcomes: Record<string, number> = {};
  for (const [, outcome, count] of metricsText.matchAll(COUNTER_LINE)) {
    outcomes[outcome as string] = (outcomes[outcome as string] ?? 0) + Number(count);
  }
  return outcomes;
}

/** What the counters gained between two readings of one API process. */
export function outcomesBetween(before: CacheOutcomes, after: CacheOutcomes): CacheOutcomes {
  return Object.fromEntries(
    Object.entries(after).map(([outcome, count]) => [outcome, count - (before[outcome] ?? 0)]),
  );
}

export function addOutcomes(outcomes: ReadonlyArray<CacheOutcomes>): CacheOutcomes {
  const sum: Record<string, number> = {};
  for (const each of outcomes) {
    for (const [outcome, count] of Object.entries(each)) sum[outcome] = (sum[outcome] ?? 0) + count;
  }
  return sum;
}

const lookupsOf = (outcomes: CacheOutcomes): number =>
  Object.values(outcomes).reduce((sum, count) => sum + count, 0);

/** The share of lookups that sent no search of their own (a hit or a coalesced wait); null without any. */
export function answeredShare(outcomes: CacheOutcomes): number | null {
  const lookups = lookupsOf(outcomes);
  return lookups === 0 ? null : ((outcomes.hit ?? 0) + (outcomes.coalesced ?? 0)) / lookups;
}

/** `2.9 lookups a request: hit 41 %, coalesced 3 %, miss 56 %`, or null when nothing was looked up. */
export function formatCacheOutcomes(outcomes: CacheOutcomes, requests: number): string | null {
  const lookups = lookupsOf(outcomes);
  if (lookups === 0 || requests === 0) return null;
  const shares = ['hit', 'coalesced', 'miss']
    .map((outcome) => `${outcome} ${(((outcomes[outcome] ?? 0) * 100) / lookups).toFixed(0)} %`)
    .join(', ');
  return `${(lookups / requests).toFixed(1)} lookups a request: ${shares}`;
}
