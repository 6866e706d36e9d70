import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export type LoginThrottle = {
  /** Seconds to wait when this email + address has used up its failures, else null. */
  blockedFor: (email: string, ip: string) => Promise<number | null>;
  recordFailure: (email: string, ip: string) => Promise<void>;
  reset: (email: string, ip: string) => Promise<void>;
};

/**
 * Counts failed sign-ins per (email, client address) in Redis, in a fixed window, so every console
 * process shares the count. Keyed per pair rather than per email alone, so an attacker cannot lock a
 * user out from elsewhere. The email is hashed: Redis never holds addresses in clear.
 */
export function createLoginThrottle(options: {
  redis: Redis;
  prefix: string;
  maxFailures: number;
  windowSeconds: number;
}): LoginThrottle {
  const keyOf = (email: string, ip: string): string =>
    `${options.prefix}:console:login-failures:${createHash('sha256').update(`${email.toLowerCase()}\n${ip}`).digest('hex')}`;

  return {
    blockedFor: async (email, ip) => {
      const key = keyOf(email, ip);
      const [count, ttl] = await Promise.all([options.redis.get(key), options.redis.ttl(key)]);
      if (count === null || Number(count) < options.maxFailures) return null;
      return ttl > 0 ? ttl : options.windowSeconds;
    },
    recordFailure: async (email, ip) => {
      const key = keyOf(email, ip);
      // The window starts at the first failure (NX) and is not extended by later ones.
      await options.redis.multi().set(key, 0, 'EX', options.windowSeconds, 'NX').incr(key).exec();
    },
    reset: async (email, ip) => {
      await options.redis.del(keyOf(email, ip));
    },
  };
}
