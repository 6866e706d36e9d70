import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Notice } from '../pages/notice.js';
import type { ReauthenticationResult } from './two-factor.service.js';
import { throttledNotice } from './throttled-notice.js';

/** What a page re-shown after a refused re-authentication carries: its status, and a notice or field errors. */
export type RefusedPageExtras = {
  status: number;
  notice?: Notice;
  errors?: { password?: string; code?: string };
};

/**
 * The one answer to a refused re-authentication (turning two-factor off, deleting the account): a wrong
 * password or code is a 401 naming its field; a throttled one a 429 with Retry-After (`what` is logged).
 */
export function refusedReauthentication(
  request: FastifyRequest,
  reply: FastifyReply,
  what: string,
  result: Exclude<ReauthenticationResult, { kind: 'confirmed' }>,
): RefusedPageExtras {
  switch (result.kind) {
    case 'wrongPassword':
      return { status: 401, errors: { password: 'This is not your password.' } };
    case 'wrongCode':
      return { status: 401, errors: { code: 'This code is not right, or was already used.' } };
    case 'throttled':
      return { status: 429, notice: throttledNotice(request, reply, what, result.retryAfterSeconds) };
  }
}
