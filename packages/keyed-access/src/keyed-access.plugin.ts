import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RedisClient } from '@directory/config';
import type { Registry } from 'prom-client';
import type { Database } from '@directory/database';
import { keyInQueryErrors } from '@directory/domain';
import { ProblemError, clientAddressGroup } from '@directory/http-server';
import {
  createDatabaseClock,
  createKeyLookup,
  createKeyVouches,
  type ActiveApiKey,
  type KeyLookup,
} from '@directory/keys';
import { TooManyAttemptsError, createAttemptLimiter, type AttemptLimiter } from './attempt-limiter.js';
import { registerDatabaseClockMetrics } from './database-clock-metrics.js';
import { registerRequestQuotas, type RequestQuotas } from './request-quotas.js';
import { registerUsageRecording } from './usage-recorder.js';

const UNAUTHORIZED_DETAIL =
  'A valid, active API key is required in the X-API-Key header (or Authorization: Bearer). The key is missing, malformed, unknown or revoked; do not retry with the same key.';
const EXPIRED_DETAIL =
  'This API key has expired; do not retry with it. Create a new key in the console (or roll keys before they expire).';

declare module 'fastify' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    /** Set by the auth hook on every /api/v1 request that reaches a handler. */
    apiKey: ActiveApiKey | null;
  }
}

/**
 * Authentication and quotas for the /api/v1 scope (docs/api.md, "Authentication" and "Rate limits"). The
 * secret comes from `X-API-Key` (canonical) or `Authorization: Bearer`. Missing, malformed, unknown and
 * revoked keys all get the same 401 (no hint which it was); an expired key's 401 says it expired (its
 * holder needs to know why a key that worked yesterday stopped; the secret proves it was theirs); a
 * malformed one is refused before any database access. A working key's row is used from memory only while
 * Redis vouches for it, and every revoke bars the key before its row is written (createKeyLookup,
 * key-vouches.ts), so a revocation is effective on the next request everywhere. The vouch is confirmed in
 * the same Redis command that counts the key's quota and the account's ceiling (request-quotas.ts): one
 * round trip per request.
 *
 * Failed authentications are counted per client address group (clientAddressGroup: an IPv6 client
 * by its network, so walking the addresses of one /64 gains nothing); a group over its limit gets 429
 * before its key is even looked at, so a flood of well-formed random keys costs a handful of queries
 * per window, not one each. The block covers every request from that group for the rest of the window,
 * and its refusals are held back a little (a tarpit: a timer, no work), so a client hammering in a
 * loop gets few answers per second and cannot crowd out everyone else's requests on the event loop.
 * Only a key that was presented and looked up counts as a failure: a request without any key guesses
 * nothing, and counting it would let any web page (image tags pointing here) lock a whole network out.
 */
function registerAuth(
  scope: FastifyInstance,
  options: {
    lookup: KeyLookup;
    quotas: RequestQuotas;
    failures: AttemptLimiter;
    refusalDelayMs: number;
    ipv6PrefixBits: number;
  },
): void {
  scope.decorateRequest('apiKey', null);
  scope.addHook('onRequest', async (request, reply) => {
    rejectKeyInQuery(request);
    const client = clientAddressGroup(request.ip, options.ipv6PrefixBits);
    const blocked = options.failures.knownBlockFor(client);
    if (blocked !== null) {
      if (options.refusalDelayMs > 0) await sleep(options.refusalDelayMs);
      throw new TooManyAttemptsError('failedAuthentication', blocked);
    }
    const secret = secretFrom(request);
    if (secret === null) throw new ProblemError('unauthorized', UNAUTHORIZED_DETAIL);
    const check = await options.lookup(secret, options.quotas.admit);
    if (check.kind !== 'active') {
      const decision = await options.failures.consume(client);
      if (!decision.allowed) {
        // Once per address group and process per window: later refusals are answered before this point.
        request.log.warn('client address blocked after too many failed authentications');
        throw new TooManyAttemptsError('failedAuthentication', decision.retryAfterSeconds);
      }
      // Only a secret that really was a key, now past its expiry, learns that it expired.
      throw new ProblemError('unauthorized', check.kind === 'expired' ? EXPIRED_DETAIL : UNAUTHORIZED_DETAIL);
    }
    request.apiKey = check.key;
    options.quotas.apply(request, reply, check.key, check.admitted);
  });
}

export type KeyedAccessOptions = {
  db: Database;
  /**
   * The pool key look-ups read from: in the api and mcp processes a small one of their own
   * (DATABASE_KEY_POOL_MAX), so authentication never waits behind the requests that fill `db` (a burst
   * of changes-feed pages); `db` when not given.
   */
  keyDb?: Database;
  redis: RedisClient;
  /** Redis key prefix of the rate-limit counters: the same for the API and MCP, so a key has one quota. */
  redisPrefix: string;
  /** The per-key quota (docs/api.md, "Rate limits"), with its RateLimit-* headers. */
  rateLimit: { max: number; windowSeconds: number };
  /**
   * Abuse resistance (config block "Abuse resistance"): requests one account may make across all its
   * keys per rate-limit window (an extra check; no headers of its own), failed authentications one
   * client address may make per window (and how long a refusal to a blocked address is held back), and
   * how long an unknown key is remembered in-process (0: never).
   */
  accountMax: number;
  failedAuth: { max: number; windowSeconds: number; refusalDelayMs: number };
  unknownKeyCacheSeconds: number;
  /** Proxies whose X-Forwarded-For names the client (addresses or CIDRs); empty: the socket's peer. */
  trustedProxies: readonly string[];
  /** Leading bits that make an IPv6 client's address group (config CLIENT_IPV6_PREFIX_BITS). */
  clientIpv6PrefixBits: number;
  /**
   * How often key usage and last use leave the process (config KEY_USAGE_FLUSH_INTERVAL_S; default a
   * minute): at most this much of a process's counts is lost when it crashes.
   */
  usageFlushIntervalMs?: number;
  /** The process's metrics registry, for the database clock's skew (none: not exported). */
  metrics?: Registry;
  /** The host's clock, ms since the epoch (tests pass a skewed one); key checks follow the database's. */
  hostNow?: () => number;
};

const DEFAULT_USAGE_FLUSH_INTERVAL_MS = 60_000;

/**
 * The API's and the MCP server's guard for a scope: key authentication (401, or 429 for an address
 * with too many failures), then the key's quota (429), then the account's ceiling (429), the last two
 * counted in the step that confirms the key (request-quotas.ts). Every authenticated request is
 * counted for its key's usage and last use (429s apart), off the request path.
 */
export function registerKeyedAccess(scope: FastifyInstance, options: KeyedAccessOptions): void {
  // Revocations and expiries are written by the database's clock, and checked by it (database-clock.ts).
  const clock = createDatabaseClock({
    ...(options.hostNow ? { hostNow: options.hostNow } : {}),
    onSkewed: (skewMs) =>
      scope.log.warn(
        { skewMs: Math.round(skewMs) },
        "the database's clock and this host's differ by more than a second: key expiries and revocations follow the database's; set this host's clock right (NTP)",
      ),
  });
  if (options.metrics) registerDatabaseClockMetrics(options.metrics, clock);
  const keyDb = options.keyDb ?? options.db;
  registerAuth(scope, {
    lookup: createKeyLookup(keyDb, createKeyVouches(options.redis, options.redisPrefix), {
      unknownKeyCacheSeconds: options.unknownKeyCacheSeconds,
      clock,
    }),
    quotas: registerRequestQuotas(scope, {
      redis: options.redis,
      prefix: options.redisPrefix,
      keyMax: options.rateLimit.max,
      accountMax: options.accountMax,
      windowSeconds: options.rateLimit.windowSeconds,
    }),
    failures: createAttemptLimiter({
      redis: options.redis,
      prefix: options.redisPrefix,
      name: 'auth-failures',
      max: options.failedAuth.max,
      windowSeconds: options.failedAuth.windowSeconds,
      blockInMemory: true,
    }),
    refusalDelayMs: options.failedAuth.refusalDelayMs,
    ipv6PrefixBits: options.clientIpv6PrefixBits,
  });
  registerUsageRecording(scope, {
    db: options.db,
    redis: options.redis,
    prefix: options.redisPrefix,
    flushIntervalMs: options.usageFlushIntervalMs ?? DEFAULT_USAGE_FLUSH_INTERVAL_MS,
  });
}

/** The authenticated key; only for code behind the auth hook. */
export function requireApiKey(request: FastifyRequest): ActiveApiKey {
  if (request.apiKey === null) throw new ProblemError('unauthorized', UNAUTHORIZED_DETAIL);
  return request.apiKey;
}

/**
 * The request headers that carry the key, and so choose the answer of a keyed route: what a keyed
 * response lists in `Vary` (docs/api.md, "Caching").
 */
export const API_KEY_HEADERS: readonly string[] = ['X-API-Key', 'Authorization'];

/** The key the request presents; null when it presents none (an empty header presents none either). */
function secretFrom(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (header !== undefined) return typeof header === 'string' && header.trim() !== '' ? header.trim() : null;
  const authorization = request.headers.authorization;
  if (authorization === undefined) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  return match?.[1] ?? null;
}

/**
 * A key in the URL has already leaked (proxies, browser history, logs): refuse it whatever else the
 * request holds, before authentication, and never echo or log the value. The rule for which names count
 * as a key is the domain's (shared with search validation).
 */
function rejectKeyInQuery(request: FastifyRequest): void {
  const errors = keyInQueryErrors(request.query as Record<string, unknown>);
  if (errors.length === 0) return;
  throw new ProblemError(
    'keyInQuery',
    'API keys must never be sent in the URL or query string: send the key in the X-API-Key header (or Authorization: Bearer). Treat the key you sent as leaked and replace it.',
    errors,
  );
}
