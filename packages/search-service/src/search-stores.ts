import { INDEX_REFRESH_INTERVAL_MS, type Config } from '@directory/config';
import {
  createDirectory,
  createSearchRequestCache,
  watchIndexChanges,
  type IndexChangeWatch,
  type Directory,
  type SearchRequestCache,
} from '@directory/directory';
import { closeConnections } from '@directory/http-server';
import { openStores, type Stores } from '@directory/keyed-access';
import { createSearchClient, type SearchClient } from '@directory/search-index';

export type SearchStores = Stores & {
  search: SearchClient;
  directory: Directory;
  /** The directory's hot-query cache; null with SEARCH_CACHE=off. */
  searchCache: SearchRequestCache | null;
};

/** The stores of a search-serving process (the API and the MCP server), plus its search client and directory. */
export function openSearchStores(config: Config): SearchStores {
  const stores = openStores(config, { autoPipelining: true });
  const search = createSearchClient(config.ELASTICSEARCH_URL, {
    timeoutMs: config.ELASTICSEARCH_TIMEOUT_MS,
    maxRetries: 1,
  });
  // The index watch lets cached answers outlive the TTL while nothing behind the alias changes.
  const indexWatch: IndexChangeWatch | null =
    config.SEARCH_CACHE === 'off' || config.SEARCH_CACHE_PROBE_MS === 0
      ? null
      : watchIndexChanges({
          client: search,
          alias: config.ELASTICSEARCH_INDEX,
          timings: {
            probeIntervalMs: config.SEARCH_CACHE_PROBE_MS,
            refreshIntervalMs: INDEX_REFRESH_INTERVAL_MS,
          },
        });
  const searchCache =
    config.SEARCH_CACHE === 'off'
      ? null
      : createSearchRequestCache({
          maxEntries: config.SEARCH_CACHE_MAX_ENTRIES,
          maxBytes: config.SEARCH_CACHE_MAX_MB * 1024 * 1024,
          ttlMs: config.SEARCH_CACHE_TTL_MS,
          ...(indexWatch ? { indexState: indexWatch.state } : {}),
        });
  const directory = createDirectory({
    client: search,
    alias: config.ELASTICSEARCH_INDEX,
    siteOrigin: config.SITE_ORIGIN,
    cursorSecret: config.CURSOR_SECRET,
    ...(searchCache ? { cache: searchCache } : {}),
  });
  return {
    ...stores,
    search,
    directory,
    searchCache,
    close: () => {
      indexWatch?.close();
      return closeConnections([stores.db.destroy(), stores.redis.quit(), search.close()]);
    },
  };
}
