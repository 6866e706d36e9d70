import { Redis } from 'ioredis';
import { databaseTimeouts, type Config } from '@directory/config';
import { createDatabase, type Database } from '@directory/database';
import { createDirectory, type Directory } from '@directory/directory';
import { createSearchClient, type SearchClient } from '@directory/search-index';

export type Stores = {
  db: Database;
  redis: Redis;
  /** Closes every connection, waiting at most two seconds; failures are ignored (the process is exiting anyway). */
  close: () => Promise<void>;
};

export type SearchStores = Stores & { search: SearchClient; directory: Directory };

/**
 * The Redis connection of a request-serving process. A rate-limit or throttle check must not hold a
 * request for long: a command gets one retry and a second at most (a paused or partitioned Redis keeps
 * the connection open and never answers), and reconnects are tried every half second at most, so an
 * outage is a 503 within about two seconds (DESIGN, "Operating under faults").
 */
export function createServiceRedis(url: string, options: { autoPipelining: boolean }): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 50, 500),
    enableAutoPipelining: options.autoPipelining,
  });
}

const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/** One database pool and one Redis connection for a service process. */
export function openStores(config: Config, options: { autoPipelining: boolean }): Stores {
  const db = createDatabase(config.DATABASE_URL, { timeouts: databaseTimeouts(config, 'request') });
  const redis = createServiceRedis(config.REDIS_URL, options);
  return { db, redis, close: () => closeAll([db.destroy(), redis.quit()]) };
}

/** The stores of a search-serving process (the API and the MCP server), plus its search client and directory. */
export function openSearchStores(config: Config): SearchStores {
  const stores = openStores(config, { autoPipelining: true });
  const search = createSearchClient(config.ELASTICSEARCH_URL, {
    timeoutMs: config.ELASTICSEARCH_TIMEOUT_MS,
    maxRetries: 1,
  });
  const directory = createDirectory({
    client: search,
    alias: config.ELASTICSEARCH_INDEX,
    siteOrigin: config.SITE_ORIGIN,
    cursorSecret: config.CURSOR_SECRET,
  });
  return {
    ...stores,
    search,
    directory,
    close: () => closeAll([stores.db.destroy(), stores.redis.quit(), search.close()]),
  };
}

// A connection to a server that does not answer (paused, partitioned) cannot be closed politely: closing
// waits for its goodbye at most this long, then the process exits without it.
const CLOSE_TIMEOUT_MS = 2_000;

async function closeAll(closing: Promise<unknown>[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)));
  await Promise.race([Promise.allSettled(closing), expired]);
  clearTimeout(timer);
}
