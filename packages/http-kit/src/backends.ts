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

/** One database pool and one Redis connection for a service process. */
export function openStores(config: Config, options: { autoPipelining: boolean }): Stores {
  const db = createDatabase(config.DATABASE_URL, { timeouts: databaseTimeouts(config, 'request') });
  // Fail fast when Redis is gone: a rate-limit or throttle check must not hold a request for long.
  const redis = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: 1,
    enableAutoPipelining: options.autoPipelining,
  });
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
