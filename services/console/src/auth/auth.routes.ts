import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '@directory/database';
import { assertNever } from '@directory/domain';
import { clientAddressGroup } from '@directory/http-server';
import { recordRequestEvent } from '../accounts/account-events.js';
import { sendToSecondStep } from '../accounts/two-factor.routes.js';
import { hasTwoFactor } from '../accounts/two-factor.service.js';
import { signIn, signUp } from './auth.service.js';
import type { LoginThrottle, SignUpThrottle } from './login-throttle.js';
import { signInPage, signUpPage } from './auth.pages.js';
import type { CsrfControl } from '../plugins/csrf.plugin.js';
import type { SessionControl } from '../plugins/session.plugin.js';
import type { AccountMail } from '../accounts/account-mail.js';
import { formFields, pageContext, sendPage } from '../pages/render.js';

export type AuthRoutesOptions = {
  db: Database;
  sessions: SessionControl;
  csrf: CsrfControl;
  throttle: LoginThrottle;
  signUpThrottle: SignUpThrottle;
  /** Mails the verification link of a new account. */
  mail: AccountMail;
  /** Leading bits that make an IPv6 client's address group, what the throttles count (config CLIENT_IPV6_PREFIX_BITS). */
  clientIpv6PrefixBits: number;
  /** CONSOLE_SECRET: signs the ticket between the password and the two-factor step. */
  secret: string;
};

export function authRoutes(app: FastifyInstance, options: AuthRoutesOptions, done: () => void): void {
  const { sessions, csrf } = options;
  app.get('/', async (request, reply) => reply.redirect(request.session ? '/keys' : '/sign-in', 303));
  app.get('/sign-in', async (request, reply) => {
    if (request.session) return reply.redirect('/keys', 303);
    return sendPage(reply, signInPage({ context: pageContext(request, reply, csrf) }));
  });
  app.post('/sign-in', async (request, reply) => handleSignIn(options, request, reply));
  app.get('/sign-up', async (request, reply) => {
    if (request.session) return reply.redirect('/keys', 303);
    return sendPage(reply, signUpPage({ context: pageContext(request, reply, csrf) }));
  });
  app.post('/sign-up', async (request, reply) => handleSignUp(options, request, reply));
  app.post('/sign-out', async (request, reply) => {
    if (request.session !== null)
      await recordRequestEvent(options.db, request, request.session.accountId, 'sign-out');
    await sessions.end(request, reply);
    return reply.redirect('/sign-in', 303);
  });
  done();
}

/** The address group the throttles count a client by. */
function clientOf(options: AuthRoutesOptions, request: FastifyRequest): string {
  return clientAddressGroup(request.ip, options.clientIpv6PrefixBits);
}

async function handleSignIn(
  options: AuthRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { db, sessions, csrf, throttle } = options;
  const form = formFields(request.body, ['email', 'password']);
  const result = await signIn(db, throttle, { ...form, client: clientOf(options, request) });
  switch (result.kind) {
    case 'signedIn':
      // With two-factor sign-in on, the right password only earns the code page (no session yet).
      if (await hasTwoFactor(db, result.accountId))
        return sendToSecondStep(options.secret, request, reply, result.accountId);
      await sessions.start(request, reply, result.accountId);
      request.log.info({ accountId: result.accountId }, 'signed in');
      await recordRequestEvent(db, request, result.accountId, 'sign-in');
      return reply.redirect('/keys', 303);
    case 'rejected':
      if (result.accountId !== null)
        await recordRequestEvent(db, request, result.accountId, 'sign-in-failed');
      return sendPage(
        reply,
        signInPage({
          context: pageContext(request, reply, csrf),
          email: form.email,
          alert: 'Email or password is incorrect.',
        }),
        401,
      );
    case 'throttled': {
      request.log.warn('sign-in throttled');
      reply.header('retry-after', String(result.retryAfterSeconds));
      return sendPage(
        reply,
        signInPage({
          context: pageContext(request, reply, csrf),
          email: form.email,
          alert: `Too many failed sign-in attempts. Try again in ${minutesText(result.retryAfterSeconds)}.`,
        }),
        429,
      );
    }
    default:
      return assertNever(result);
  }
}

async function handleSignUp(
  options: AuthRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { db, sessions, csrf, signUpThrottle, mail } = options;
  const form = formFields(request.body, ['email', 'password']);
  const result = await signUp(db, signUpThrottle, { ...form, client: clientOf(options, request) });
  switch (result.kind) {
    case 'created':
      await sessions.start(request, reply, result.accountId);
      request.log.info({ accountId: result.accountId }, 'account created');
      // After the answer: signing up does not wait for (or fail with) the SMTP server; the account page
      // can mail the link again.
      mail.later('verification mail', () =>
        mail.sendVerification({ accountId: result.accountId, email: result.email }),
      );
      return reply.redirect('/keys', 303);
    case 'invalid':
      return sendPage(
        reply,
        signUpPage({
          context: pageContext(request, reply, csrf),
          email: form.email,
          errors: result.errors,
        }),
        400,
      );
    case 'emailTaken':
      return sendPage(
        reply,
        signUpPage({
          context: pageContext(request, reply, csrf),
          email: form.email,
          alert: 'An account with this email already exists. Sign in instead.',
        }),
        409,
      );
    case 'throttled':
      request.log.warn('sign-up throttled');
      reply.header('retry-after', String(result.retryAfterSeconds));
      return sendPage(
        reply,
        signUpPage({
          context: pageContext(request, reply, csrf),
          email: form.email,
          alert: `Too many sign-ups from your network. Try again in ${minutesText(result.retryAfterSeconds)}.`,
        }),
        429,
      );
    default:
      return assertNever(result);
  }
}

function minutesText(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
