import { LRUCache } from 'lru-cache';

/**
 * The hot-query cache (issue 15): Elasticsearch answers kept in process for a short time, keyed by the
 * request exactly as sent. Directory traffic is skewed (the first page of "dentists in Madrid" is asked
 * again and again), so a small LRU absorbs much of it.
 *
 * - Key: the JSON of the request (index + body), the same serialization the client sends. The
 *   directory's requests are already normalized (canonical filters, cursor → search_after, limit →
 *   size) and never contain an API key, so equal requests share an entry whoever sends them.
 * - Freshness: an entry is served until `ttlMs` have passed since Elasticsearch answered. Config keeps that at most
 *   the index refresh interval, so an answer is never older than one more refresh interval.
 * - Coalescing: identical requests that arrive while one is in flight wait for it instead of sending
 *   their own (lru-cache's fetch is unique per key in flight).
 * - Failures are never kept: an error rejects every waiter of that request, and the next request asks
 *   Elasticsearch again.
 * - Bounded by entries and by the answers' approximate size (their JSON length).
 *
 * Answers are shared between callers: they are frozen, so code that would change one for its own
 * caller fails loudly instead of changing it for everyone.
 */
export type SearchRequestCache = {
  /** `send()`'s answer to `request`: from memory, from an identical request in flight, or sent now. */
  answer<Answer extends object>(request: object, send: () => Promise<Answer>): Promise<Answer>;
  stats(): SearchCacheStats;
};

/** Counts since start (`hits` + `coalesced` needed no request of their own) and the current contents. */
export type SearchCacheStats = {
  hits: number;
  misses: number;
  coalesced: number;
  entries: number;
  bytes: number;
};

export type SearchCacheOptions = {
  maxEntries: number;
  maxBytes: number;
  ttlMs: number;
  /** The clock TTLs are measured on (tests); performance.now by default. */
  now?: () => number;
};

type Send = () => Promise<object>;

export function createSearchRequestCache(options: SearchCacheOptions): SearchRequestCache {
  const counts = { hits: 0, misses: 0, coalesced: 0 };
  const entries = new LRUCache<string, object, Send>({
    max: options.maxEntries,
    maxSize: options.maxBytes,
    // An answer larger than a tenth of the cache would evict many hot ones; it is returned, not kept.
    maxEntrySize: Math.max(1, Math.floor(options.maxBytes / 10)),
    ttl: options.ttlMs,
    // Exact expiry: read the clock at every lookup (cheap) rather than reuse it for a millisecond.
    ttlResolution: 0,
    // Entries past their TTL count against the bounds until touched; the LRU order evicts them first.
    sizeCalculation: (answer, key) => key.length + JSON.stringify(answer).length,
    fetchMethod: async (_key, _stale, { context: send }) => deepFreeze(await send()),
    // A request in flight whose entry was evicted still answers its waiters (it is just not kept).
    ignoreFetchAbort: true,
    ...(options.now ? { perf: { now: options.now } } : {}),
  });
  return {
    async answer<Answer extends object>(request: object, send: () => Promise<Answer>): Promise<Answer> {
      const status: LRUCache.Status<string, object, Send> = {};
      const pending = entries.fetch(JSON.stringify(request), { context: send, status });
      // fetch() records how it was answered before it first yields.
      if (status.fetch === 'hit') counts.hits += 1;
      else if (status.fetch === 'inflight') counts.coalesced += 1;
      else counts.misses += 1;
      const answer = await pending;
      // Only an aborted fetch resolves to undefined, and ignoreFetchAbort keeps fetches from aborting.
      if (answer === undefined) throw new Error('search cache: a request resolved to no answer');
      return answer as Answer;
    },
    stats: () => ({ ...counts, entries: entries.size, bytes: entries.calculatedSize }),
  };
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
