import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { RedisClient } from '@directory/config';
import { isDatabaseUnavailableError, type Database } from '@directory/database';
import {
  buildLogger,
  installRequestTracing,
  requestIdOptions,
  trustedProxyOption,
  type LogOptions,
} from '@directory/http-server';
import { isRedisUnavailableError } from '@directory/keyed-access';
import { createKeyVouches } from '@directory/keys';
import { installHttpMetrics } from '@directory/observability';
import type { WebhookOptions } from '@directory/webhooks';
import {
  createLoginThrottle,
  createSignUpThrottle,
  type LoginThrottle,
  type SignUpThrottle,
} from './auth/login-throttle.js';
import { loggerOptions } from './logging.js';
import { CONSOLE_CSS, CONSOLE_JS } from './pages/assets.js';
import { errorPage } from './pages/layout.js';
import { registerCsrf, type CsrfControl } from './plugins/csrf.plugin.js';
import { registerSecurityHeaders } from './plugins/security-headers.plugin.js';
import { registerSessions } from './plugins/session.plugin.js';
import { authRoutes } from './auth/auth.routes.js';
import { keysRoutes } from './keys/keys.routes.js';
import { createWebhookBudgets, type WebhookBudgetLimits } from './webhooks/webhook-budgets.js';
import { webhooksRoutes } from './webhooks/webhooks.routes.js';
import { accountRoutes } from './accounts/account.routes.js';
import { accountDeletionRoutes } from './accounts/account-deletion.js';
import { twoFactorRoutes } from './accounts/two-factor.routes.js';
import { sessionsRoutes } from './sessions/sessions.routes.js';
import { createAccountMail } from './accounts/account-mail.js';
import { createAccountThrottles, type AccountLimits } from './accounts/account-throttles.js';
import type { Mailer } from './mail/mailer.js';
import { pageContext, sendPage } from './pages/render.js';

/** Everything the console talks to, built by the caller (server.ts, or a test with its own DB/prefix). */
export type ConsoleDependencies = {
  db: Database;
  /** Shared sign-in and sign-up attempt counters (throttling). */
  redis: RedisClient;
  redisPrefix: string;
  /** HMAC key for CSRF tokens (config CONSOLE_SECRET). */
  secret: string;
  sessionTtlSeconds: number;
  /** Sign-in attempts per window: per email and address pair (maxFailures), per account, per address. */
  login: { maxFailures: number; maxPerAccount: number; maxPerAddress: number; windowSeconds: number };
  /** Sign-up attempts per address per window. */
  signUp: { max: number; windowSeconds: number };
  /** Proxies whose X-Forwarded-For/-Proto is believed (behind a TLS-terminating proxy); addresses or CIDRs. */
  trustedProxies: readonly string[];
  /** Leading bits that make an IPv6 client's address group in the sign-in and sign-up throttles (config CLIENT_IPV6_PREFIX_BITS). */
  clientIpv6PrefixBits: number;
  /** The per-key quota the API applies (config RATE_LIMIT_MAX / RATE_LIMIT_WINDOW_S), shown beside each key. */
  keyPolicy: { max: number; windowSeconds: number };
  /**
   * The URL rules and the per-account budgets of the webhook pages. server.ts always gives them; without
   * them (specs of the other pages) the webhook pages are not served.
   */
  webhooks?: { options: WebhookOptions; limits: WebhookBudgetLimits };
  /**
   * The console's mails (verification and reset links): the mailer (SMTP_URL, MAIL_FROM; closed with the
   * app) and the origin the links open (CONSOLE_PUBLIC_URL).
   */
  mail: { mailer: Mailer; publicUrl: string };
  /** Verification mails, reset requests and password changes per window (docs/security.md). */
  accountLimits: AccountLimits;
};

export type ConsoleOptions = LogOptions;

/** Builds the console (not listening): external plugins → app plugins → routes, as in fastify/demo. */
export async function buildConsoleApp(
  deps: ConsoleDependencies,
  options: ConsoleOptions = {},
): Promise<FastifyInstance> {
  const app = createFastify(deps, options);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);

  registerSecurityHeaders(app);
  const sessions = registerSessions(app, { db: deps.db, ttlSeconds: deps.sessionTtlSeconds });
  const csrf = registerCsrfWithExpiredFormPage(app, deps.secret);
  registerErrorPages(app, csrf);
  registerAssetsAndHealth(app);

  const mail = createAccountMail({
    db: deps.db,
    mailer: deps.mail.mailer,
    secret: deps.secret,
    publicUrl: deps.mail.publicUrl,
    log: app.log,
  });
  // Mails still being sent (after their page was answered) are waited for at close; then the mailer
  // (its pooled SMTP connections) closes with the app.
  app.addHook('onClose', async () => {
    await mail.drain();
    deps.mail.mailer.close();
  });
  await app.register(authRoutes, {
    db: deps.db,
    sessions,
    csrf,
    mail,
    ...createThrottles(deps),
    clientIpv6PrefixBits: deps.clientIpv6PrefixBits,
    secret: deps.secret,
  });
  const accountThrottles = createAccountThrottles({
    redis: deps.redis,
    prefix: deps.redisPrefix,
    limits: deps.accountLimits,
  });
  await app.register(accountRoutes, {
    db: deps.db,
    sessions,
    csrf,
    mail,
    throttles: accountThrottles,
    secret: deps.secret,
    clientIpv6PrefixBits: deps.clientIpv6PrefixBits,
  });
  await app.register(twoFactorRoutes, {
    db: deps.db,
    sessions,
    csrf,
    throttles: accountThrottles,
    secret: deps.secret,
  });
  const vouches = createKeyVouches(deps.redis, deps.redisPrefix);
  await app.register(accountDeletionRoutes, {
    db: deps.db,
    sessions,
    csrf,
    throttles: accountThrottles,
    mail,
    vouches,
    secret: deps.secret,
  });
  await app.register(sessionsRoutes, { db: deps.db, sessions, csrf });
  await app.register(keysRoutes, {
    db: deps.db,
    vouches,
    csrf,
    keyPolicy: deps.keyPolicy,
  });
  if (deps.webhooks)
    await app.register(webhooksRoutes, {
      webhooks: {
        db: deps.db,
        options: {
          ...deps.webhooks.options,
          // Why an address was refused goes to the log only; the account reads that it was.
          onRefused: (refusal) => app.log.info(refusal, 'webhook address refused'),
        },
      },
      budgets: createWebhookBudgets({
        redis: deps.redis,
        prefix: deps.redisPrefix,
        limits: deps.webhooks.limits,
      }),
      csrf,
    });

  await app.ready();
  return app;
}

function createFastify(deps: ConsoleDependencies, options: ConsoleOptions): FastifyInstance {
  const app = Fastify({
    logger: buildLogger(options, loggerOptions),
    ...requestIdOptions,
    trustProxy: trustedProxyOption(deps.trustedProxies),
    bodyLimit: 16 * 1024,
    // Router errors (an undecodable URL) bypass the hooks and the error handler: still an HTML page,
    // without session or form (no hook has run to know either).
    frameworkErrors: (error, request, reply) => {
      request.log.info({ code: error.code }, 'request rejected by the router');
      const page = errorPage({
        title: 'Request not accepted',
        message: 'The request could not be processed.',
        context: { csrfToken: '', signedInAs: null },
      });
      void sendPage(reply, page, error.statusCode ?? 400);
    },
  });
  installRequestTracing(app);
  if (options.httpMetrics) installHttpMetrics(app, options.httpMetrics);
  return app;
}

/** CSRF checks on every form; a form that fails them gets a page saying to reload and try again. */
function registerCsrfWithExpiredFormPage(app: FastifyInstance, secret: string): CsrfControl {
  const csrf = registerCsrf(app, {
    secret,
    onRejected: (request, reply) =>
      sendPage(
        reply,
        errorPage({
          title: 'Form expired',
          message:
            'This form was not sent from this console page, or it has expired. Go back, reload the page and try again.',
          context: pageContext(request, reply, csrf),
        }),
        403,
      ),
  });
  return csrf;
}

/** The sign-in and sign-up attempt counters, shared by every console process through Redis. */
function createThrottles(deps: ConsoleDependencies): {
  throttle: LoginThrottle;
  signUpThrottle: SignUpThrottle;
} {
  const throttle = createLoginThrottle({
    redis: deps.redis,
    prefix: deps.redisPrefix,
    maxPerAccountAndAddress: deps.login.maxFailures,
    maxPerAccount: deps.login.maxPerAccount,
    maxPerAddress: deps.login.maxPerAddress,
    windowSeconds: deps.login.windowSeconds,
  });
  const signUpThrottle = createSignUpThrottle({
    redis: deps.redis,
    prefix: deps.redisPrefix,
    max: deps.signUp.max,
    windowSeconds: deps.signUp.windowSeconds,
  });
  return { throttle, signUpThrottle };
}

/** Errors and unknown paths are answered with an HTML page, as every other console answer. */
function registerErrorPages(app: FastifyInstance, csrf: CsrfControl): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    // A database or Redis (sessions' throttles) that does not answer is an outage (503, try again
    // shortly), not a bug.
    const unavailable = isDatabaseUnavailableError(error) || isRedisUnavailableError(error);
    const status = unavailable
      ? 503
      : typeof error.statusCode === 'number' && error.statusCode >= 400
        ? error.statusCode
        : 500;
    if (unavailable) request.log.error({ err: error }, 'a backing service is unavailable');
    else if (status >= 500) request.log.error({ err: error }, 'unhandled error');
    else request.log.info({ code: error.code, status }, 'request rejected by the framework');
    const title = status >= 500 ? 'Something went wrong' : 'Request not accepted';
    const message = unavailable
      ? 'The console is temporarily unavailable. Please try again in a moment.'
      : status >= 500
        ? 'The console could not complete the request. Please try again.'
        : 'The request could not be processed.';
    return sendPage(reply, errorPage({ title, message, context: pageContext(request, reply, csrf) }), status);
  });
  app.setNotFoundHandler(async (request, reply) =>
    sendPage(
      reply,
      errorPage({
        title: 'Page not found',
        message: 'There is no such page.',
        context: pageContext(request, reply, csrf),
      }),
      404,
    ),
  );
}

function registerAssetsAndHealth(app: FastifyInstance): void {
  app.get('/assets/console.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(CONSOLE_CSS),
  );
  app.get('/assets/console.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(CONSOLE_JS),
  );
  app.get('/healthz', (_request, reply) => reply.send({ status: 'ok' }));
}
export { createSmtpMailer, type Mailer } from './mail/mailer.js';
export type { AccountLimits } from './accounts/account-throttles.js';
