import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cookieName, cookieOptions } from './session.plugin.js';

/** The hidden form field every POST form carries. */
export const CSRF_FIELD = '_csrf';
const ANONYMOUS_COOKIE = 'console_csrf';
const ANONYMOUS_PATTERN = /^[A-Za-z0-9_-]{43}$/;

declare module 'fastify' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    anonymousCsrfSeed: string | null;
  }
}

export type CsrfControl = {
  /** The token to put in this page's forms (sets the anonymous seed cookie when signed out). */
  tokenFor: (request: FastifyRequest, reply: FastifyReply) => string;
};

/**
 * Synchronizer tokens, stateless: a token is an HMAC (CONSOLE_SECRET) of the session id, so it is
 * tied to that session and useless in any other. Signed-out forms (sign in, sign up) are bound the same
 * way to a random seed in an HttpOnly cookie, which stops login CSRF. Once a session exists, only the
 * session's token is accepted: a seed cookie proves nothing about who wrote the form (without the
 * `__Host-` prefix a sibling subdomain can plant one, with its token taken from any signed-out page).
 * Every POST without the expected token is refused with 403 before its handler runs.
 */
export function registerCsrf(
  app: FastifyInstance,
  options: { secret: string; onRejected: (request: FastifyRequest, reply: FastifyReply) => FastifyReply },
): CsrfControl {
  const sign = (purpose: string): string =>
    createHmac('sha256', options.secret).update(`console-csrf\n${purpose}`).digest('base64url');
  const expectedToken = (request: FastifyRequest): string | null => {
    if (request.session !== null) return sign(`session:${request.session.id}`);
    const seed = request.cookies[cookieName(request, ANONYMOUS_COOKIE)];
    return seed !== undefined && ANONYMOUS_PATTERN.test(seed) ? sign(`anonymous:${seed}`) : null;
  };

  app.decorateRequest('anonymousCsrfSeed', null);
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const body = request.body as Record<string, unknown> | null | undefined;
    const sent = body?.[CSRF_FIELD];
    const expected = expectedToken(request);
    const matches = typeof sent === 'string' && expected !== null && sameText(sent, expected);
    if (!matches) {
      request.log.info('form post refused: missing or invalid CSRF token');
      return options.onRejected(request, reply);
    }
  });

  return {
    tokenFor: (request, reply) => {
      if (request.session !== null) return sign(`session:${request.session.id}`);
      let seed = request.anonymousCsrfSeed ?? request.cookies[cookieName(request, ANONYMOUS_COOKIE)];
      if (seed === undefined || !ANONYMOUS_PATTERN.test(seed)) {
        seed = randomBytes(32).toString('base64url');
        reply.setCookie(cookieName(request, ANONYMOUS_COOKIE), seed, cookieOptions(request));
      }
      request.anonymousCsrfSeed = seed;
      return sign(`anonymous:${seed}`);
    },
  };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
