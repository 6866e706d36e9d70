import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '@directory/database';
import { assertNever } from '@directory/domain';
import type { AccountThrottles } from './account-throttles.js';
import { recordRequestEvent } from './account-events.js';
import { readSignInTicket, mintSignInTicket, SIGN_IN_TICKET_TTL_S } from './two-factor.js';
import {
  checkSecondFactor,
  confirmEnrolment,
  enrolmentOf,
  reauthenticate,
  turnOffTwoFactor,
} from './two-factor.service.js';
import { recoveryCodesPage, twoFactorPage, twoFactorSignInPage } from './two-factor.pages.js';
import type { Notice } from '../pages/notice.js';
import { throttledNotice } from './throttled-notice.js';
import { refusedReauthentication } from './reauthentication-answer.js';
import type { CsrfControl } from '../plugins/csrf.plugin.js';
import { cookieName, cookieOptions, type SessionControl } from '../plugins/session.plugin.js';
import { formFields, pageContext, sendPage } from '../pages/render.js';
import { redirectSignedOutToSignIn, sessionOf } from '../sessions/signed-in.js';

export type TwoFactorRoutesOptions = {
  db: Database;
  sessions: SessionControl;
  csrf: CsrfControl;
  throttles: AccountThrottles;
  /** CONSOLE_SECRET: seals the TOTP secrets and signs the sign-in ticket. */
  secret: string;
};

/** The cookie that carries a sign-in from the password step to the code step (signed, 5 minutes). */
const TICKET_COOKIE = 'console_2fa';

const signedIn = { onRequest: redirectSignedOutToSignIn };

/** After a right password on an account with two-factor sign-in: the ticket, then the code page. */
export function sendToSecondStep(
  secret: string,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: string,
): FastifyReply {
  reply.setCookie(
    cookieName(request, TICKET_COOKIE),
    mintSignInTicket(secret, accountId, new Date()),
    cookieOptions(request, SIGN_IN_TICKET_TTL_S),
  );
  return reply.redirect('/sign-in/two-factor', 303);
}

export function twoFactorRoutes(
  app: FastifyInstance,
  options: TwoFactorRoutesOptions,
  done: () => void,
): void {
  app.get('/sign-in/two-factor', async (request, reply) => {
    if (ticketAccount(options, request) === null) return reply.redirect('/sign-in', 303);
    return sendPage(reply, twoFactorSignInPage({ context: pageContext(request, reply, options.csrf) }));
  });
  app.post('/sign-in/two-factor', async (request, reply) => handleSecondStep(options, request, reply));
  app.get('/account/two-factor', signedIn, async (request, reply) =>
    sendTwoFactorPage(options, request, reply),
  );
  app.post('/account/two-factor/enable', signedIn, async (request, reply) =>
    handleEnable(options, request, reply),
  );
  app.post('/account/two-factor/disable', signedIn, async (request, reply) =>
    handleDisable(options, request, reply),
  );
  done();
}

function ticketAccount(options: TwoFactorRoutesOptions, request: FastifyRequest): string | null {
  const ticket = request.cookies[cookieName(request, TICKET_COOKIE)];
  return ticket === undefined ? null : readSignInTicket(options.secret, ticket, new Date());
}

async function handleSecondStep(
  options: TwoFactorRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const accountId = ticketAccount(options, request);
  if (accountId === null) return reply.redirect('/sign-in', 303);
  const { code } = formFields(request.body, ['code']);
  const blocked = await options.throttles.twoFactorCode(accountId);
  if (blocked !== null) {
    const notice = throttledNotice(request, reply, 'two-factor sign-in', blocked);
    return sendPage(
      reply,
      twoFactorSignInPage({ context: pageContext(request, reply, options.csrf), notice }),
      429,
    );
  }
  const factor = await checkSecondFactor(options, accountId, code);
  if (factor === 'wrong') {
    await recordRequestEvent(options.db, request, accountId, 'sign-in-failed', 'two-factor code');
    return sendPage(
      reply,
      twoFactorSignInPage({
        context: pageContext(request, reply, options.csrf),
        error: 'This code is not right, or was already used.',
      }),
      401,
    );
  }
  await options.throttles.twoFactorSucceeded(accountId);
  reply.clearCookie(cookieName(request, TICKET_COOKIE), cookieOptions(request));
  await options.sessions.start(request, reply, accountId);
  if (factor === 'recovery') await recordRequestEvent(options.db, request, accountId, 'recovery-code-used');
  await recordRequestEvent(options.db, request, accountId, 'sign-in');
  request.log.info({ accountId, factor }, 'signed in');
  return reply.redirect('/keys', 303);
}

async function sendTwoFactorPage(
  options: TwoFactorRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  extras: { status?: number; notice?: Notice; errors?: { code?: string; password?: string } } = {},
): Promise<FastifyReply> {
  const session = sessionOf(request);
  const enrolment = await enrolmentOf(options, { accountId: session.accountId, email: session.email });
  const context = pageContext(
    request,
    reply,
    options.csrf,
    request.method === 'POST' ? { replaceUrl: '/account/two-factor' } : {},
  );
  return sendPage(
    reply,
    twoFactorPage({ context, email: session.email, enrolment, notice: extras.notice, errors: extras.errors }),
    extras.status ?? 200,
  );
}

async function handleEnable(
  options: TwoFactorRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const session = sessionOf(request);
  const { code } = formFields(request.body, ['code']);
  const result = await confirmEnrolment(options, session.accountId, code);
  switch (result.kind) {
    case 'enabled': {
      await recordRequestEvent(options.db, request, session.accountId, 'two-factor-enabled');
      request.log.info({ accountId: session.accountId }, 'two-factor sign-in enabled');
      const context = pageContext(request, reply, options.csrf, { replaceUrl: '/account/two-factor' });
      return sendPage(reply, recoveryCodesPage({ context, codes: result.recoveryCodes }));
    }
    case 'wrongCode':
      return sendTwoFactorPage(options, request, reply, {
        status: 400,
        errors: { code: 'This code is not right. Check the time on your phone and try the next one.' },
      });
    case 'notEnrolling':
      return reply.redirect('/account/two-factor', 303);
    case 'throttled': {
      const notice = throttledNotice(request, reply, 'two-factor enrolment', result.retryAfterSeconds);
      return sendTwoFactorPage(options, request, reply, { status: 429, notice });
    }
    default:
      return assertNever(result);
  }
}

async function handleDisable(
  options: TwoFactorRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const session = sessionOf(request);
  const form = formFields(request.body, ['password', 'code']);
  const result = await reauthenticate(options, { accountId: session.accountId, ...form });
  if (result.kind !== 'confirmed') {
    return sendTwoFactorPage(
      options,
      request,
      reply,
      refusedReauthentication(request, reply, 'two-factor change', result),
    );
  }
  await turnOffTwoFactor(options.db, session.accountId);
  if (result.usedRecoveryCode)
    await recordRequestEvent(options.db, request, session.accountId, 'recovery-code-used');
  await recordRequestEvent(options.db, request, session.accountId, 'two-factor-disabled');
  request.log.info({ accountId: session.accountId }, 'two-factor sign-in disabled');
  return sendTwoFactorPage(options, request, reply, {
    notice: { kind: 'success', text: 'Two-factor sign-in is off.' },
  });
}
