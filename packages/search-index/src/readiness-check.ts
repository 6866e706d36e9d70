import type { SearchClient } from './client.js';

/**
 * The read alias answers a search (the cluster is up and the alias points at a searchable index): a
 * readiness check in the shape observability's checkReadiness takes (`{ name, check }`), named as
 * /readyz reports it.
 */
export function elasticsearchCheck(
  client: SearchClient,
  alias: string,
): { name: 'elasticsearch'; check: () => Promise<unknown> } {
  return {
    name: 'elasticsearch',
    check: () =>
      client.search(
        { index: alias, size: 0, track_total_hits: false },
        { maxRetries: 0, requestTimeout: 5_000 },
      ),
  };
}
