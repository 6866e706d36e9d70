import { createRedisClient, databaseTimeouts, type Config, type RedisClient } from '@directory/config';
import { createDatabase, type Database } from '@directory/database';
import { closeConnections } from '@directory/http-server';

export type Stores = {
  db: Database;
  redis: RedisClient;
  /** Closes every connection, waiting at most two seconds; failures are ignored (the process is exiting anyway). */
  close: () => Promise<void>;
};

/**
 * One database pool (keys, accounts) and one Redis connection (quotas, throttles) for a
 * request-serving process.
 */
export function openStores(config: Config, options: { autoPipelining: boolean }): Stores {
  const db = createDatabase(config.DATABASE_URL, {
    maxConnections: config.DATABASE_POOL_MAX,
    timeouts: databaseTimeouts(config, 'request'),
  });
  const redis = createRedisClient(config, 'service', options);
  return { db, redis, close: () => closeConnections([db.destroy(), redis.quit()]) };
}
