import { Redis } from 'ioredis';
import { databaseTimeouts, type Config } from '@directory/config';
import { createDatabase, type Database } from '@directory/database';
import { closeConnections } from '@directory/http-server';

export type Stores = {
  db: Database;
  redis: Redis;
  /** Closes every connection, waiting at most two seconds; failures are ignored (the process is exiting anyway). */
  close: () => Promise<void>;
};

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

/**
 * One database pool (keys, accounts) and one Redis connection (quotas, throttles) for a
 * request-serving process.
 */
export function openStores(config: Config, options: { autoPipelining: boolean }): Stores {
  const db = createDatabase(config.DATABASE_URL, { timeouts: databaseTimeouts(config, 'request') });
  const redis = createServiceRedis(config.REDIS_URL, options);
  return { db, redis, close: () => closeConnections([db.destroy(), redis.quit()]) };
}
