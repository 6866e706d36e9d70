import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { IndexState } from './index-change-watch.js';

/**
 * The hot-query cache (docs/operations.md, Hot-query cache): Elasticsearch answers kept in process, keyed by
 * the request exactly as sent. Directory traffic is skewed (the first page of "dentists in Madrid" is asked
 * again and again), so a small LRU absorbs much of it.
 *
 * - Key: the JSON of the request (index + body), the same serialization the client sends. The directory's
 *   requests are already normalized (canonical filters, cursor → search_after, limit → size) and never
 *   contain an API key, so equal requests share an entry whoever sends them.
 * - Freshness: an answer is served for `ttlMs` (at most the index refresh interval) after it was asked for,
 *   as any answer of the cluster may be one refresh old. Beyond that only with an index watch
 *   (index-change-watch.ts): an answer asked for while the index was settled is served as long as the watch
 *   sees no change since (up to `settledMaxAgeMs`), because until then the cluster would answer exactly the
 *   same. Whatever the watch says, an answer is never older than Elasticsearch's own freshness plus one probe
 *   interval.
 * - Coalescing: identical requests that arrive while one is in flight wait for it instead of sending their
 *   own.
 * - Failures are never kept: an error rejects every waiter of that request, and the next request asks
 *   Elasticsearch again.
 * - Admission: a caller asks for an answer to be kept at its request's first miss or only at its second
 *   (`RequestAdmission`). At the second, an answer is kept only for a request seen before: an earlier miss
 *   still remembered, a kept answer gone stale, or a caller that waited on it in flight. Most map
 *   viewports, radius searches and records by id are asked once; keeping each of those cost the API about
 *   40 % more CPU on a miss (freezing, measuring and later collecting a large answer nobody asks for
 *   again) and pushed hot answers out. A hot request pays one more miss, once. The memory of requests seen
 *   once is a digest of each, as many as the cache holds answers. `admit: 'every'` keeps every answer at
 *   its first miss whatever the caller asked.
 * - Bounded by entries and by the answers' approximate size (their JSON length).
 *
 * Answers are shared between callers: they are frozen, so code that would change one for its own caller fails
 * loudly instead of changing it for everyone.
 */
export type SearchRequestCache = {
  /**
   * `send()`'s answer to `request`: from memory, from an identical request in flight, or sent now; kept
   * as `admission` says (at the first miss unless told).
   */
  answer<Answer extends object>(
    request: object,
    send: () => Promise<Answer>,
    admission?: RequestAdmission,
  ): Promise<Answer>;
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

/** Whether the cache follows each request's admission (the default), or keeps every answer at once. */
export type SearchCacheAdmission = 'repeated' | 'every';

/** When an answer is kept: at its request's first miss, or at its second (requests mostly asked once). */
export type RequestAdmission = 'first-miss' | 'second-miss';

export type SearchCacheOptions = {
  maxEntries: number;
  maxBytes: number;
  ttlMs: number;
  admit?: SearchCacheAdmission;
  /** The index watch; without one, every answer lives `ttlMs`. */
  indexState?: () => IndexState;
  /** The longest an answer lives on the watch's word (a bound on any mistake, not a freshness rule). */
  settledMaxAgeMs?: number;
  /** The clock ages are measured on (tests); performance.now by default. */
  now?: () => number;
};

/** How long an answer of a settled index may be served at most when the options do not say. */
export const SETTLED_MAX_AGE_MS = 60_000;

/** A request sent and not yet answered; `askedAgain` once a caller waits on it too. */
type Flight = { answer: Promise<object>; askedAgain: boolean };

type Entry = {
  answer: object;
  /** When the request was sent (an answer is as old as its request, not its response). */
  sentAt: number;
  /** The index generation it reflects in full; null if the index was not settled when it was sent. */
  generation: number | null;
};

export function createSearchRequestCache(options: SearchCacheOptions): SearchRequestCache {
  const now = options.now ?? (() => performance.now());
  const settledMaxAgeMs = options.settledMaxAgeMs ?? SETTLED_MAX_AGE_MS;
  const counts = { hits: 0, misses: 0, coalesced: 0 };
  const entries = new LRUCache<string, Entry>({
    max: options.maxEntries,
    maxSize: options.maxBytes,
    // An answer larger than a tenth of the cache would evict many hot ones; it is returned, not kept.
    maxEntrySize: Math.max(1, Math.floor(options.maxBytes / 10)),
    sizeCalculation: (entry, key) => key.length + JSON.stringify(entry.answer).length,
  });
  const inFlight = new Map<string, Flight>();
  const admitEvery = (options.admit ?? 'repeated') === 'every';
  // Digests of requests that missed once and were not kept: a second miss of one is kept.
  const seenOnce = new LRUCache<string, true>({ max: options.maxEntries });

  function isFresh(entry: Entry): boolean {
    const age = now() - entry.sentAt;
    if (age <= options.ttlMs) return true;
    if (entry.generation === null || options.indexState === undefined || age > settledMaxAgeMs) return false;
    const index = options.indexState();
    return index.settled && index.generation === entry.generation;
  }

  /** Whether this miss of `key` is a repeat; a first one is remembered, a repeat forgotten (it is kept). */
  function isRepeatedMiss(key: string): boolean {
    const digest = hash('sha1', key, 'base64');
    if (seenOnce.delete(digest)) return true;
    seenOnce.set(digest, true);
    return false;
  }

  /** Sends the request; its answer is kept if `keep`, or if another caller waits on it meanwhile. */
  function send(key: string, sendRequest: () => Promise<object>, keep: boolean): Promise<object> {
    const index = options.indexState?.();
    const sentAt = now();
    const generation = index?.settled ? index.generation : null;
    const flight: Flight = {
      askedAgain: false,
      answer: sendRequest()
        .then((answer) => {
          // Frozen even when not kept: callers waiting on one request share its answer.
          const frozen = deepFreeze(answer);
          if (keep || flight.askedAgain) entries.set(key, { answer: frozen, sentAt, generation });
          return frozen;
        })
        .finally(() => inFlight.delete(key)),
    };
    inFlight.set(key, flight);
    return flight.answer;
  }

  return {
    async answer<Answer extends object>(
      request: object,
      sendRequest: () => Promise<Answer>,
      admission: RequestAdmission = 'first-miss',
    ): Promise<Answer> {
      const key = JSON.stringify(request);
      const entry = entries.get(key);
      if (entry !== undefined && isFresh(entry)) {
        counts.hits += 1;
        return entry.answer as Answer;
      }
      const running = inFlight.get(key);
      if (running !== undefined) {
        counts.coalesced += 1;
        running.askedAgain = true;
        return (await running.answer) as Answer;
      }
      counts.misses += 1;
      if (entry !== undefined) entries.delete(key);
      // A stale entry means the request was kept before: a repeat.
      const keep = admitEvery || admission === 'first-miss' || entry !== undefined || isRepeatedMiss(key);
      return (await send(key, sendRequest, keep)) as Answer;
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
