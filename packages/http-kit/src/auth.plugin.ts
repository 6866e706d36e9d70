import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Database } from '@directory/database';
import { keyInQueryErrors } from '@directory/domain';
import { findActiveKeyBySecret, type ActiveApiKey } from '@directory/keys';
import { registerRateLimit } from '@directory/rate-limit';
import { ProblemError, UNAUTHORIZED_DETAIL } from './problem.js';

declare module 'fastify' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    /** Set by the auth hook on every /api/v1 request that reaches a handler. */
    apiKey: ActiveApiKey | null;
  }
}

/**
 * Authentication for the /api/v1 scope (SPEC §5). The secret comes from `X-API-Key` (canonical) or
 * `Authorization: Bearer`. Missing, malformed, unknown and revoked keys all get the same 401 (no hint
 * which it was); a malformed one is refused before any database access. Every request is checked
 * against the database, never a cache, so a revocation is effective on the next request everywhere.
 */
function registerAuth(scope: FastifyInstance, options: { db: Database }): void {
  scope.decorateRequest('apiKey', null);
  scope.addHook('onRequest', async (request) => {
    rejectKeyInQuery(request);
    const secret = secretFrom(request);
    const key = secret === null ? null : await findActiveKeyBySecret(options.db, secret);
    if (key === null) throw new ProblemError('unauthorized', UNAUTHORIZED_DETAIL);
    request.apiKey = key;
  });
}

export type KeyedAccessOptions = {
  db: Database;
  redis: Redis;
  /** Redis key prefix of the rate-limit counters: the same for the API and MCP, so a key has one quota. */
  redisPrefix: string;
  rateLimit: { max: number; windowSeconds: number };
};

/**
 * The API's and the MCP server's guard for a scope: key authentication (401), then the key's quota
 * (429). The quota is counted per key id, so it must come after authentication.
 */
export async function registerKeyedAccess(
  scope: FastifyInstance,
  options: KeyedAccessOptions,
): Promise<void> {
  registerAuth(scope, { db: options.db });
  await registerRateLimit(scope, {
    redis: options.redis,
    prefix: options.redisPrefix,
    max: options.rateLimit.max,
    windowSeconds: options.rateLimit.windowSeconds,
    keyOf: (request) => requireApiKey(request).id,
  });
}

/** The authenticated key; only for code behind the auth hook. */
export function requireApiKey(request: FastifyRequest): ActiveApiKey {
  if (request.apiKey === null) throw new ProblemError('unauthorized', UNAUTHORIZED_DETAIL);
  return request.apiKey;
}

function secretFrom(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (header !== undefined) return typeof header === 'string' ? header.trim() : null;
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
  const errors = keyInQueryErrors(request.query as Record<string, unknown>).map(({ parameter, reason }) => ({
    parameter,
    reason,
  }));
  if (errors.length === 0) return;
  throw new ProblemError(
    'keyInQuery',
    'API keys must never be sent in the URL or query string: send the key in the X-API-Key header (or Authorization: Bearer). Treat the key you sent as leaked and replace it.',
    errors,
  );
}
