import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/** Thrown when a key's window is exhausted; mapped to a 429 problem (headers are already set). */
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
 *
 * A 304 Not Modified does not spend quota (as GitHub does): the request is counted like any other
 * before the handler runs, since only the answer tells, and given back before the 304 is sent (see
 * `giveBack`), so its `RateLimit-Remaining` and the key's next request already see it uncounted.
 */
export async function registerRateLimit(scope: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const policy = `${options.max};w=${options.windowSeconds}`;
  const namespace = rateLimitRedisNamespace(options.prefix);
  // Requests this limiter counted and let through, with when (monotonic ms): only these can be given back.
  const countedAt = new WeakMap<FastifyRequest, number>();
  await scope.register(fastifyRateLimit, {
    global: true,
    hook: 'preHandler',
    max: options.max,
    timeWindow: options.windowSeconds * 1000,
    redis: options.redis,
    nameSpace: namespace,
    enableDraftSpec: true,
    // Redis trouble must not silently lift the limit: the error surfaces (503 in the API).
    skipOnError: false,
    keyGenerator: options.keyOf,
    // Called after the count, for requests within the quota only.
    onExceeding: (request) => countedAt.set(request, performance.now()),
    errorResponseBuilder: (_request, context) => new RateLimitExceededError(Math.ceil(context.ttl / 1000)),
  });
  const giveBack = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const counted = countedAt.get(request);
    if (counted === undefined) return;
    // The count lives in the window this request was counted in, which ends at most RateLimit-Reset
    // seconds after the count; a key with more time left than that is a later window's, not ours.
    const windowLeftMs =
      Number(reply.getHeader('ratelimit-reset')) * 1000 - Math.floor(performance.now() - counted);
    try {
      const count = Number(
        await options.redis.eval(GIVE_BACK_SCRIPT, 1, `${namespace}${options.keyOf(request)}`, windowLeftMs),
      );
      if (count >= 0) reply.header('ratelimit-remaining', Math.max(0, options.max - count));
    } catch (error) {
      // Failing closed: the request simply stays counted (its headers already say so).
      request.log.warn({ err: error }, 'could not give back the quota of a 304; it stays counted');
    }
  };
  scope.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 304) await giveBack(request, reply);
    if (reply.hasHeader('ratelimit-limit')) reply.header('ratelimit-policy', policy);
    return payload;
  });
}

/**
 * Takes one request off a key's count, atomically, if the key is still in the window the request was
 * counted in (ARGV[1]: the most milliseconds that window can have left) and its count is above zero:
 * a decrement must never create a key, leave one without expiry, or spend into a later window.
 * Answers the new count, or -1 when there was nothing to give back.
 */
const GIVE_BACK_SCRIPT = `
  local left = redis.call('PTTL', KEYS[1])
  if left <= 0 or left > tonumber(ARGV[1]) then return -1 end
  local count = tonumber(redis.call('GET', KEYS[1]))
  if count == nil or count <= 0 then return -1 end
  return redis.call('DECR', KEYS[1])
`;
