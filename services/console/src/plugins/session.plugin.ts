import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '@directory/database';
import {
  createSession,
  deleteSession,
  findSession,
  type ConsoleSession,
} from '../sessions/session.repository.js';
import { MAX_USER_AGENT_LENGTH, addressRangeOf } from '../sessions/session-origin.js';

declare module 'fastify' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    /** The signed-in account's session, loaded from the cookie on every request; null when signed out. */
    session: ConsoleSession | null;
  }
}

const SESSION_COOKIE = 'console_session';

/**
 * Whether the request came over TLS (directly, or via a trusted proxy's X-Forwarded-Proto, from an
 * address in TRUSTED_PROXIES): what makes the console's cookies Secure and `__Host-` named.
 */
function overTls(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/**
 * A console cookie's name for this request. Over TLS it carries the `__Host-` prefix: browsers accept
 * such a cookie only from this very host (Secure, Path=/, no Domain), so a sibling subdomain cannot
 * plant or overwrite it. Browsers refuse `__Host-` cookies without Secure, so plain-HTTP local use
 * keeps the plain name (and that protection; docs/console.md). Only the name for the request's own
 * scheme is ever read.
 */
export function cookieName(request: FastifyRequest, name: string): string {
  return overTls(request) ? `__Host-${name}` : name;
}

/**
 * Cookie attributes shared by every console cookie: not readable by scripts, not sent on cross-site
 * subrequests or POSTs (Lax), host-only with Path=/ (what `__Host-` requires), Secure over TLS.
 */
export function cookieOptions(request: FastifyRequest, maxAgeSeconds?: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: overTls(request),
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}

export type SessionControl = {
  start: (request: FastifyRequest, reply: FastifyReply, accountId: string) => Promise<void>;
  end: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
};

export function registerSessions(
  app: FastifyInstance,
  options: { db: Database; ttlSeconds: number },
): SessionControl {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/assets/')) return; // static files need no database round trip
    const token = request.cookies[cookieName(request, SESSION_COOKIE)];
    request.session = token === undefined ? null : await findSession(options.db, token);
  });

  return {
    start: async (request, reply, accountId) => {
      // A fresh token at every sign-in (no session fixation); any earlier session of this browser ends.
      if (request.session !== null) await deleteSession(options.db, request.session.id);
      const userAgent = request.headers['user-agent'];
      const { token } = await createSession(options.db, {
        accountId,
        ttlSeconds: options.ttlSeconds,
        origin: {
          userAgent: typeof userAgent === 'string' ? userAgent.slice(0, MAX_USER_AGENT_LENGTH) : null,
          addressRange: addressRangeOf(request.ip),
        },
      });
      reply.setCookie(cookieName(request, SESSION_COOKIE), token, cookieOptions(request, options.ttlSeconds));
    },
    end: async (request, reply) => {
      if (request.session !== null) await deleteSession(options.db, request.session.id);
      request.session = null;
      reply.clearCookie(cookieName(request, SESSION_COOKIE), cookieOptions(request));
    },
  };
}
