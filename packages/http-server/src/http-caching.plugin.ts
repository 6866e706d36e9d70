import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { entityTagOf, ifNoneMatchMatches } from './conditional-get.js';

export type HttpCachingOptions = {
  /**
   * Request headers that choose the answer (for the API: the headers that carry the key). Every
   * response of the scope lists them in `Vary`, so no cache hands one key's answer to another.
   */
  vary: readonly string[];
};

/** Successful answers: only the client's own cache may keep them, and must revalidate before each use. */
const REVALIDATE_PRIVATELY = 'private, no-cache';
/** Errors (4xx, 5xx): never stored; a 429 or 503 is about that moment only. */
const DO_NOT_STORE = 'no-store';

/**
 * HTTP caching for every route of `scope`, in one onSend hook (so a new route needs no code of its
 * own): `Cache-Control` and `Vary` on every response, and on a GET or HEAD answered 200 with a JSON
 * body a strong `ETag` of the serialized body (unless the route set a tag of its own, which is kept). When
 * the request's `If-None-Match` matches that tag the
 * answer becomes 304 with no body, keeping every header the 200 would have had (ETag, Cache-Control,
 * Vary, RateLimit-*), as RFC 9110 §15.4.5 asks.
 *
 * The tag is computed after the route did its work, so a 304 saves bandwidth, not work. Register it
 * before the hooks that must see the final status (the rate limit gives a 304's request back).
 */
export function registerHttpCaching(scope: FastifyInstance, options: HttpCachingOptions): void {
  scope.addHook('onSend', async (request, reply, payload) => {
    appendVary(reply, options.vary);
    if (reply.statusCode >= 400) {
      reply.header('cache-control', DO_NOT_STORE);
      return payload;
    }
    reply.header('cache-control', REVALIDATE_PRIVATELY);
    if (!isTaggable(request, reply, payload)) return payload;
    // Encoded once: the tag is hashed from these bytes and they are what the socket sends (hashing the
    // string and writing it would encode it twice; a changes page is up to a megabyte).
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    // A route that has a validator of its own (FHIR's read: W/"versionId") keeps it.
    const own = reply.getHeader('etag');
    const etag = typeof own === 'string' ? own : entityTagOf(body);
    reply.header('etag', etag);
    if (!ifNoneMatchMatches(request.headers['if-none-match'], etag)) return body;
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    // Fastify's HEAD handling turns a body into the Content-Length of the 200 (which a 304 may carry)
    // and drops it; a GET's 304 simply has no body.
    return request.method === 'HEAD' ? body : null;
  });
}

function isTaggable(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): payload is string | Buffer {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (reply.statusCode !== 200) return false;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(String(reply.getHeader('content-type') ?? ''));
}

function appendVary(reply: FastifyReply, names: readonly string[]): void {
  const existing = reply.getHeader('vary');
  const present = typeof existing === 'string' ? existing.split(',').map((name) => name.trim()) : [];
  const lower = new Set(present.map((name) => name.toLowerCase()));
  const added = names.filter((name) => !lower.has(name.toLowerCase()));
  if (added.length > 0) reply.header('vary', [...present.filter(Boolean), ...added].join(', '));
}
