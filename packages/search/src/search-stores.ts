import {
  INDEX_REFRESH_INTERVAL_MS,
  databaseTimeouts,
  sandboxStoreNames,
  type Config,
} from '@directory/config';
import { createDatabase, type Database } from '@directory/database';
import { closeConnections } from '@directory/http-server';
import { openStores, type Stores } from '@directory/keyed-access';
import { createSearchClient, type SearchClient } from '@directory/search-index';
import type { Dataset } from './datasets.js';
import { createDirectory, type Directory } from './directory.service.js';
import { watchIndexChanges, type IndexChangeWatch } from './index-change-watch.js';
import { createSearchRequestCache, type SearchRequestCache } from './search-request-cache.js';

export type SearchStores = Stores & {
  /** The pool of API-key look-ups alone (DATABASE_KEY_POOL_MAX), apart from `db`. */
  keyDb: Database;
  search: SearchClient;
  directory: Directory;
  /** The directory's hot-query cache; null with SEARCH_CACHE=off. */
  searchCache: SearchRequestCache | null;
  /** What `dk_test_` keys read: the sandbox's own alias and database (sandboxStoreNames). */
  sandbox: Dataset;
};

// Sandbox traffic is for building against the API, not for serving users: a couple of connections do,
// and none is opened until a test key asks for the changes feed.
const SANDBOX_POOL_MAX = 2;

/** The stores of a search-serving process (the API and the MCP server), plus its search client and directory. */
export function openSearchStores(config: Config): SearchStores {
  const stores = openStores(config, { autoPipelining: true });
  // Authentication gets connections of its own: the main pool also serves the changes feed, whose pages
  // (up to 1,000 rows) can take every connection in a burst, and a key look-up waiting for one would
  // answer 503 after DATABASE_CONNECT_TIMEOUT_MS.
  const keyDb = createDatabase(config.DATABASE_URL, {
    maxConnections: config.DATABASE_KEY_POOL_MAX,
    timeouts: databaseTimeouts(config, 'request'),
  });
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
          admit: config.SEARCH_CACHE_ADMIT,
          ...(indexWatch ? { indexState: indexWatch.state } : {}),
        });
  // How fresh a typeahead's city table is kept, and how long a keystroke waits for a read of one.
  const cityTableTiming = {
    refreshMs: config.SUGGEST_CITIES_REFRESH_MS,
    waitMs: config.ELASTICSEARCH_TIMEOUT_MS,
  };
  const directoryOptions = {
    client: search,
    siteOrigin: config.SITE_ORIGIN,
    cursorSecret: config.CURSOR_SECRET,
    // With one node a timed-out attempt is final already (search-index client.ts): no timer per search.
    ...(config.ELASTICSEARCH_URL.length > 1 ? { searchDeadlineMs: config.SEARCH_DEADLINE_MS } : {}),
  };
  const directory = createDirectory({
    ...directoryOptions,
    alias: config.ELASTICSEARCH_INDEX,
    ...(searchCache ? { cache: searchCache } : {}),
    cityTables: { ...cityTableTiming, ...(indexWatch ? { indexState: indexWatch.state } : {}) },
  });
  const sandboxNames = sandboxStoreNames(config);
  const sandboxDb = createDatabase(sandboxNames.databaseUrl, {
    maxConnections: SANDBOX_POOL_MAX,
    timeouts: databaseTimeouts(config, 'request'),
  });
  // Uncached: the hot-query cache and its index watch are for the live directory's load.
  const sandbox = {
    directory: createDirectory({
      ...directoryOptions,
      alias: sandboxNames.alias,
      cityTables: cityTableTiming,
    }),
    db: sandboxDb,
  };
  return {
    ...stores,
    keyDb,
    search,
    directory,
    searchCache,
    sandbox,
    close: () => {
      indexWatch?.close();
      return closeConnections([
        stores.db.destroy(),
        keyDb.destroy(),
        sandboxDb.destroy(),
        stores.redis.quit(),
        search.close(),
      ]);
    },
  };
}
