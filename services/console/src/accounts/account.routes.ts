import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '@directory/database';
import { assertNever } from '@directory/domain';
import { clientAddressGroup } from '@directory/http-server';
import { activityPageOf, listAccountEvents, recordRequestEvent } from './account-events.js';
import type { AccountMail } from './account-mail.js';
import type { AccountThrottles } from './account-throttles.js';
import { throttledNotice } from './throttled-notice.js';
import {
  changePassword,
  confirmEmail,
  holderOfToken,
  requestPasswordReset,
  resendVerification,
  resetPassword,
} from './account.service.js';
import {
  accountPage,
  activityPage,
  confirmEmailPage,
  forgotPasswordPage,
  invalidLinkPage,
  messagePage,
  resetPasswordPage,
  resetRequestedPage,
} from './account.pages.js';
import type { CsrfControl } from '../plugins/csrf.plugin.js';
import type { SessionControl } from '../plugins/session.plugin.js';
import { formFields, pageContext, sendPage } from '../pages/render.js';
import { redirectSignedOutToSignIn, sessionOf } from '../sessions/signed-in.js';

export type AccountRoutesOptions = {
  db: Database;
  sessions: SessionControl;
  csrf: CsrfControl;
  throttles: AccountThrottles;
  mail: AccountMail;
  /** HMAC key of the mailed links' tokens (config CONSOLE_SECRET). */
  secret: string;
  clientIpv6PrefixBits: number;
};

const signedIn = { onRequest: redirectSignedOutToSignIn };

/** E-mail verification, and password reset and change. */
export function accountRoutes(app: FastifyInstance, options: AccountRoutesOptions, done: () => void): void {
  const { csrf } = options;
  app.get('/forgot-password', async (request, reply) =>
    sendPage(reply, forgotPasswordPage({ context: pageContext(request, reply, csrf) })),
  );
  app.post('/forgot-password', async (request, reply) => handleResetRequest(options, request, reply));
  app.get('/reset-password', async (request, reply) => showResetForm(options, request, reply));
  app.post('/reset-password', async (request, reply) => handleReset(options, request, reply));
  app.get('/verify-email', async (request, reply) => showConfirmEmail(options, request, reply));
  app.post('/verify-email', async (request, reply) => handleConfirmEmail(options, request, reply));
  app.post('/verify-email/resend', signedIn, async (request, reply) => handleResend(options, request, reply));
  app.get('/account', signedIn, async (request, reply) => sendAccountPage(options, request, reply));
  app.post('/account/password', signedIn, async (request, reply) => handleChange(options, request, reply));
  app.get('/account/activity', signedIn, async (request, reply) => {
    const page = activityPageOf(formFields(request.query, ['page']).page);
    const { events, hasOlder } = await listAccountEvents(options.db, sessionOf(request).accountId, page);
    const context = pageContext(request, reply, options.csrf);
    return sendPage(reply, activityPage({ context, events, page, hasOlder }));
  });
  done();
}

async function handleResetRequest(
  options: AccountRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { email } = formFields(request.body, ['email']);
  const client = clientAddressGroup(request.ip, options.clientIpv6PrefixBits);
  const result = await requestPasswordReset(options, { email, client });
  const context = pageContext(request, reply, options.csrf);
  switch (result.kind) {
    case 'accepted':
      return sendPage(reply, resetRequestedPage({ context }));
    case 'invalid':
      return sendPage(reply, forgotPasswordPage({ context, email, error: result.error }), 400);
    case 'throttled': {
      const notice = throttledNotice(request, reply, 'password reset request', result.retryAfterSeconds);
      return sendPage(reply, forgotPasswordPage({ context, email, notice }), 429);
    }
    default:
      return assertNever(result);
  }
}

async function showResetForm(
  options: AccountRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { token } = formFields(request.query, ['token']);
  const holder = await holderOfToken(options.db, options.secret, 'reset-password', token);
  const context = pageContext(request, reply, options.csrf);
  if (holder === null)
    return sendPage(
      reply,
      invalidLinkPage({ context, again: { href: '/forgot-password', label: 'Ask for a new link' } }),
      400,
    );
  return sendPage(reply, resetPasswordPage({ context, token, email: holder.email }));
}

async function handleReset(
  options: AccountRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { token, password } = formFields(request.body, ['token', 'password']);
  const result = await resetPassword(options.db, options.secret, { token, password });
  switch (result.kind) {
    case 'reset':
      request.log.info({ accountId: result.accountId }, 'password reset');
      await recordRequestEvent(options.db, request, result.accountId, 'password-reset');
      // Every session of the account ended with it, this browser's too (if it had one).
      if (request.session !== null) await options.sessions.end(request, reply);
      return sendPage(
        reply,
        messagePage({
          context: pageContext(request, reply, options.csrf),
          title: 'Password changed',
          notice: { kind: 'success', text: 'Your new password is set.' },
          text: 'Every browser that was signed in to the account is signed out. Sign in with the new password.',
          next: { href: '/sign-in', label: 'Sign in' },
        }),
      );
    case 'invalidLink':
      return sendPage(
        reply,
        invalidLinkPage({
          context: pageContext(request, reply, options.csrf),
          again: { href: '/forgot-password', label: 'Ask for a new link' },
        }),
        400,
      );
    case 'invalid': {
      const holder = await holderOfToken(options.db, options.secret, 'reset-password', token);
      const context = pageContext(request, reply, options.csrf);
      if (holder === null)
        return sendPage(
          reply,
          invalidLinkPage({ context, again: { href: '/forgot-password', label: 'Ask for a new link' } }),
          400,
        );
      return sendPage(
        reply,
        resetPasswordPage({ context, token, email: holder.email, error: result.error }),
        400,
      );
    }
    default:
      return assertNever(result);
  }
}

async function showConfirmEmail(
  options: AccountRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { token } = formFields(request.query, ['token']);
  const holder = await holderOfToken(options.db, options.secret, 'verify-email', token);
  const context = pageContext(request, reply, options.csrf);
  if (holder === null)
    return sendPage(reply, invalidLinkPage({ context, again: resendTarget(request) }), 400);
  return sendPage(reply, confirmEmailPage({ context, token, email: holder.email }));
}

/** Where a holder gets a new verification link: the account page signed in, else signing in. */
function resendTarget(request: FastifyRequest): { href: string; label: string } {
  return request.session === null
    ? { href: '/sign-in', label: 'Sign in to have a new link mailed' }
    : { href: '/account', label: 'Back to your account' };
}

async function handleConfirmEmail(
  options: AccountRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { token } = formFields(request.body, ['token']);
  const result = await confirmEmail(options.db, options.secret, token);
  if (result.kind === 'invalidLink')
    return sendPage(
      reply,
      invalidLinkPage({ context: pageContext(request, reply, options.csrf), again: resendTarget(request) }),
      400,
    );
  request.log.info({ accountId: result.accountId }, 'e-mail address verified');
  await recordRequestEvent(options.db, request, result.accountId, 'email-verified');
  // This request's session was loaded before the address was verified.
  if (request.session?.accountId === result.accountId) request.session.emailVerified = true;
  return sendPage(
    reply,
    messagePage({
      context: pageContext(request, reply, options.csrf),
      title: 'Address confirmed',
      notice: { kind: 'success', text: 'Your e-mail address is confirmed.' },
      text: 'You can now create live API keys and webhooks.',
      next:
        request.session === null
          ? { href: '/sign-in', label: 'Sign in' }
          : { href: '/keys', label: 'Go to your API keys' },
    }),
  );
}

async function handleResend(
  options: AccountRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const result = await resendVerification(options, sessionOf(request));
  switch (result.kind) {
    case 'sent':
      return sendAccountPage(options, request, reply, {
        notice: {
          kind: 'success',
          text: `We mailed a new link to ${sessionOf(request).email}. Only the latest link works.`,
        },
      });
    case 'alreadyVerified':
      return reply.redirect('/account', 303);
    case 'throttled': {
      const notice = throttledNotice(request, reply, 'verification mail', result.retryAfterSeconds);
      return sendAccountPage(options, request, reply, { status: 429, notice });
    }
    default:
      return assertNever(result);
  }
}

type AccountPageExtras = Omit<Parameters<typeof accountPage>[0], 'context' | 'email' | 'emailVerified'> & {
  status?: number;
};

function sendAccountPage(
  options: AccountRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  extras: AccountPageExtras = {},
): FastifyReply {
  const session = sessionOf(request);
  const context = pageContext(
    request,
    reply,
    options.csrf,
    request.method === 'POST' ? { replaceUrl: '/account' } : {},
  );
  const { status, ...rest } = extras;
  return sendPage(
    reply,
    accountPage({ context, email: session.email, emailVerified: session.emailVerified, ...rest }),
    status ?? 200,
  );
}

async function handleChange(
  options: AccountRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const session = sessionOf(request);
  const form = formFields(request.body, ['currentPassword', 'newPassword']);
  const result = await changePassword(options, {
    accountId: session.accountId,
    sessionId: session.id,
    currentPassword: form.currentPassword,
    newPassword: form.newPassword,
  });
  switch (result.kind) {
    case 'changed': {
      request.log.info(
        { accountId: session.accountId, endedSessions: result.endedSessions },
        'password changed',
      );
      await recordRequestEvent(options.db, request, session.accountId, 'password-changed');
      const email = result.email;
      options.mail.later('password changed mail', () => options.mail.sendPasswordChanged(email));
      const others = result.endedSessions;
      return sendAccountPage(options, request, reply, {
        notice: {
          kind: 'success',
          text: `Your password is changed. ${others} other session${others === 1 ? '' : 's'} signed out.`,
        },
      });
    }
    case 'wrongPassword':
      return sendAccountPage(options, request, reply, {
        status: 401,
        errors: { currentPassword: 'This is not your current password.' },
      });
    case 'invalid':
      return sendAccountPage(options, request, reply, { status: 400, errors: { newPassword: result.error } });
    case 'throttled': {
      const notice = throttledNotice(request, reply, 'password change', result.retryAfterSeconds);
      return sendAccountPage(options, request, reply, { status: 429, notice });
    }
    default:
      return assertNever(result);
  }
}
