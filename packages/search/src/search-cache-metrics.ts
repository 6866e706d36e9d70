import { Counter, Gauge, type Registry } from 'prom-client';
import type { SearchRequestCache } from './search-request-cache.js';

/**
 * The hot-query cache's series, read from the cache's own counts at each scrape:
 * `search_cache_requests_total{outcome}` (hit: answered from memory; coalesced: waited for an identical
 * request in flight; miss: sent to Elasticsearch), `search_cache_entries` and `search_cache_bytes`.
 * Hit ratio: (hit + coalesced) / all.
 */
export function registerSearchCacheMetrics(registry: Registry, cache: SearchRequestCache): void {
  new Counter({
    name: 'search_cache_requests_total',
    help: 'Directory requests to Elasticsearch by how the hot-query cache answered them (hit, coalesced, miss)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      const { hits, coalesced, misses } = cache.stats();
      // The cache owns the running totals; the series mirrors them at each scrape.
      this.reset();
      this.inc({ outcome: 'hit' }, hits);
      this.inc({ outcome: 'coalesced' }, coalesced);
      this.inc({ outcome: 'miss' }, misses);
    },
  });
  new Gauge({
    name: 'search_cache_entries',
    help: 'Answers held by the hot-query cache (expired ones included until evicted or read)',
    registers: [registry],
    collect() {
      this.set(cache.stats().entries);
    },
  });
  new Gauge({
    name: 'search_cache_bytes',
    help: 'Approximate size of the answers held by the hot-query cache (their JSON length)',
    registers: [registry],
    collect() {
      this.set(cache.stats().bytes);
    },
  });
}
