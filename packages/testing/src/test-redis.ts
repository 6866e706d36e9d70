import { Redis } from 'ioredis';
import { loadConfig, standaloneTarget } from '@directory/config';
import { uniqueName } from './names.js';

export type TestRedis = { prefix: string; redis: Redis; url: string; cleanup: () => Promise<void> };

/** A Redis connection plus a key prefix of the spec's own; cleanup deletes every key under the prefix. */
export function createTestRedis(label: string): TestRedis {
  const url = loadConfig().REDIS_URL;
  const redis = new Redis(standaloneTarget(url), { maxRetriesPerRequest: null });
  const prefix = uniqueName(label);
  return {
    prefix,
    redis,
    url,
    cleanup: async () => {
      await deleteKeysWithPrefix(redis, prefix);
      redis.disconnect();
    },
  };
}

/** Deletes every key that starts with `prefix`, a SCAN page at a time (the server is never blocked). */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
}
