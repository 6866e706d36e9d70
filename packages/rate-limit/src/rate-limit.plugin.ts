import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

export type RateLimitOptions = {
  /** Shared by every API and MCP process: the count lives in Redis, not in the process. */
  redis: Redis;
  /** Redis key prefix (config REDIS_PREFIX; tests pass their own). */
  prefix: string;
  max: number;
  windowSeconds: number;
  /** The identity the quota belongs to: the authenticated key's id. Called after authentication only. */
  keyOf: (request: FastifyRequest) => string;
};

/** Thrown when a key's window is exhausted; the API maps it to a 429 problem (headers are already set). */
export class RateLimitExceededError extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(`the request quota of this API key is exhausted; retry after ${retryAfterSeconds} seconds`);
    this.name = 'RateLimitExceededError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Whether an error means Redis could not be reached (the limiter fails closed: the API answers 503
 * rather than serving without a limit). ioredis does not export its connection error classes.
 */
export function isRedisUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    /Connection is closed|Stream isn't writeable|Command timed out/.test(error.message)
  );
}

export function rateLimitRedisNamespace(prefix: string): string {
  return `${prefix}:rate-limit:`;
}

/**
 * Adds the per-key limit to every route of `scope` (register it inside the authenticated scope, after
 * the auth hook). It runs at preHandler, after authentication, so a request that fails authentication
 * never spends anyone's quota. Fixed window per key, counted atomically in Redis by
 * @fastify/rate-limit's Lua script; headers follow the IETF httpapi draft (DESIGN "Keys and limits"):
 * `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds until the window resets), plus
 * `RateLimit-Policy: <max>;w=<window>`, which the plugin lacks. A 429 carries `Retry-After`: the
 * window's remaining time rounded up to whole seconds, so it is never earlier than the window's end.
 */
export async function registerRateLimit(scope: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const policy = `${options.max};w=${options.windowSeconds}`;
  await scope.register(fastifyRateLimit, {
    global: true,
    hook: 'preHandler',
    max: options.max,
    timeWindow: options.windowSeconds * 1000,
    redis: options.redis,
    nameSpace: rateLimitRedisNamespace(options.prefix),
    enableDraftSpec: true,
    // Redis trouble must not silently lift the limit: the error surfaces (503 in the API).
    skipOnError: false,
    keyGenerator: options.keyOf,
    errorResponseBuilder: (_request, context) => new RateLimitExceededError(Math.ceil(context.ttl / 1000)),
  });
  scope.addHook('onSend', async (_request, reply, payload) => {
    if (reply.hasHeader('ratelimit-limit')) reply.header('ratelimit-policy', policy);
    return payload;
  });
}
