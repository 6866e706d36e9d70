import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Notice } from '../pages/notice.js';

/**
 * The one answer of a throttled account form (reset, verification, password change, two-factor, deletion):
 * logs what was throttled (never who), sets Retry-After, and returns the notice the page shows.
 */
export function throttledNotice(
  request: FastifyRequest,
  reply: FastifyReply,
  what: string,
  retryAfterSeconds: number,
): Notice {
  request.log.warn(`${what} throttled`);
  reply.header('retry-after', String(retryAfterSeconds));
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return {
    kind: 'error',
    text: `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  };
}
