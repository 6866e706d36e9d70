import { Redis } from 'ioredis';
import { redisClientOptions, standaloneTarget } from '@directory/config';

export { REDIS_COMMAND_TIMEOUT_MS, isRedisUnavailableError } from '@directory/config';

/**
 * A `service` client (see createRedisClient in config) of one server at `url`: for tests and tools
 * that point at a Redis of their own. Processes use createRedisClient, which follows REDIS_*.
 */
export function createServiceRedis(url: string, options: { autoPipelining: boolean }): Redis {
  return new Redis(standaloneTarget(url), redisClientOptions('service', options));
}
