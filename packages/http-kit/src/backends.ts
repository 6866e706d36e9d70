import { Redis } from 'ioredis';
import { databaseTimeouts, type Config } from '@directory/config';
import { createDatabase, type Database } from '@directory/database';
import { createDirectory, type Directory } from '@directory/directory';
import { createSearchClient, type SearchClient } from '@directory/search-index';

export type Stores = {
  db: Database;
  redis: Redis;
  /** Closes every connection; failures are ignored (the process is exiting anyway). */
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

async function closeAll(closing: Promise<unknown>[]): Promise<void> {
  await Promise.allSettled(closing);
}
