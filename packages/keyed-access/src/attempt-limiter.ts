import { LRUCache } from 'lru-cache';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClient } from '@directory/config';

/** The answer of an attempt limiter: go ahead, or wait this many whole seconds. */
export type AttemptDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type AttemptLimiter = {
  /**
   * Counts one attempt for `subject` and says whether it may proceed. The count is taken atomically in
   * Redis before the caller does the expensive or sensitive work, so parallel attempts cannot all slip
   * through between a check and an increment.
   */
  consume: (subject: string) => Promise<AttemptDecision>;
  /** Gives back the point of an attempt that turned out legitimate (a successful sign-in). */
  refund: (subject: string) => Promise<void>;
  /**
   * Seconds left on a block this process already knows of (no Redis round trip), else null. Only with
   * `blockInMemory`; lets a caller refuse before doing any work at all.
   */
  knownBlockFor: (subject: string) => number | null;
};

export type AttemptLimiterOptions = {
  redis: RedisClient;
  /** Redis key prefix (config REDIS_PREFIX; tests pass their own). */
  prefix: string;
  /** What is counted, part of the Redis key: e.g. `auth-failures`, `console:sign-up`. */
  name: string;
  /** Attempts allowed per window. */
  max: number;
  windowSeconds: number;
  /**
   * Once a subject is over its limit, remember that in this process until the window ends and answer
   * without Redis (for floods, where the refusal must cost next to nothing).
   */
  blockInMemory?: boolean;
};

// Bounds the memory of in-process blocks whatever the number of subjects a flood brings.
const MAX_BLOCKS_IN_MEMORY = 10_000;

/**
 * A fixed-window attempt counter per subject (a client address, a hashed email, an account id), shared
 * by every process through Redis (rate-limiter-flexible's atomic Lua increment). Subjects are hashed or
 * opaque ids by the caller's choice; a Redis failure rejects (callers fail closed: 503).
 */
export function createAttemptLimiter(options: AttemptLimiterOptions): AttemptLimiter {
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: `${options.prefix}:${options.name}`,
    points: options.max,
    duration: options.windowSeconds,
  });
  // Subject → end of its block (epoch ms), for subjects this process saw go over the limit.
  const blockedUntil =
    options.blockInMemory === true ? new LRUCache<string, number>({ max: MAX_BLOCKS_IN_MEMORY }) : null;
  const knownBlockFor = (subject: string): number | null => {
    const until = blockedUntil?.get(subject);
    if (until === undefined) return null;
    const left = until - Date.now();
    if (left > 0) return Math.ceil(left / 1000);
    blockedUntil?.delete(subject);
    return null;
  };
  return {
    consume: async (subject) => {
      const known = knownBlockFor(subject);
      if (known !== null) return { allowed: false, retryAfterSeconds: known };
      try {
        await limiter.consume(subject);
        return { allowed: true };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        blockedUntil?.set(subject, Date.now() + rejection.msBeforeNext);
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
    },
    refund: async (subject) => {
      await limiter.reward(subject);
    },
    knownBlockFor,
  };
}

/**
 * A request refused by an attempt limiter or a ceiling other than the key's own quota; its problem
 * mapping (keyedAccessProblemMappings) makes it a 429 problem with `Retry-After`.
 */
export class TooManyAttemptsError extends Error {
  readonly retryAfterSeconds: number;
  readonly reason: 'failedAuthentication' | 'accountCeiling';
  constructor(reason: TooManyAttemptsError['reason'], retryAfterSeconds: number) {
    super(`${reason}: retry after ${retryAfterSeconds} seconds`);
    this.name = 'TooManyAttemptsError';
    this.reason = reason;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
