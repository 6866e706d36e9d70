import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cookieOptions } from './session.plugin.js';

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
 * way to a random seed in an HttpOnly cookie, which stops login CSRF. Every POST without a matching
 * token is refused with 403 before its handler runs.
 */
export function registerCsrf(
  app: FastifyInstance,
  options: { secret: string; onRejected: (request: FastifyRequest, reply: FastifyReply) => FastifyReply },
): CsrfControl {
  const sign = (purpose: string): string =>
    createHmac('sha256', options.secret).update(`console-csrf\n${purpose}`).digest('base64url');
  const expectedTokens = (request: FastifyRequest): string[] => {
    const tokens: string[] = [];
    if (request.session !== null) tokens.push(sign(`session:${request.session.id}`));
    const seed = request.cookies[ANONYMOUS_COOKIE];
    if (seed !== undefined && ANONYMOUS_PATTERN.test(seed)) tokens.push(sign(`anonymous:${seed}`));
    return tokens;
  };

  app.decorateRequest('anonymousCsrfSeed', null);
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const body = request.body as Record<string, unknown> | null | undefined;
    const sent = body?.[CSRF_FIELD];
    const matches =
      typeof sent === 'string' && expectedTokens(request).some((expected) => sameText(sent, expected));
    if (!matches) {
      request.log.info('form post refused: missing or invalid CSRF token');
      return options.onRejected(request, reply);
    }
  });

  return {
    tokenFor: (request, reply) => {
      if (request.session !== null) return sign(`session:${request.session.id}`);
      let seed = request.anonymousCsrfSeed ?? request.cookies[ANONYMOUS_COOKIE];
      if (seed === undefined || !ANONYMOUS_PATTERN.test(seed)) {
        seed = randomBytes(32).toString('base64url');
        reply.setCookie(ANONYMOUS_COOKIE, seed, cookieOptions(request));
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
