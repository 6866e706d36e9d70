import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { isDatabaseUnavailableError, type Database } from '@directory/database';
import { buildLogger, requestIdOptions, type LogOptions } from '@directory/http-kit';
import { installHttpMetrics } from '@directory/observability';
import { createLoginThrottle } from './accounts/login-throttle.js';
import { loggerOptions } from './logging.js';
import { CONSOLE_CSS, CONSOLE_JS } from './pages/assets.js';
import { errorPage } from './pages/layout.js';
import { registerCsrf } from './plugins/csrf.plugin.js';
import { registerSecurityHeaders } from './plugins/security-headers.plugin.js';
import { registerSessions } from './plugins/session.plugin.js';
import { authRoutes } from './routes/auth.routes.js';
import { keysRoutes } from './routes/keys.routes.js';
import { pageContext, sendPage } from './routes/render.js';

/** Everything the console talks to, built by the caller (server.ts, or a test with its own DB/prefix). */
export type ConsoleDependencies = {
  db: Database;
  /** Shared sign-in failure counters (login throttling). */
  redis: Redis;
  redisPrefix: string;
  /** HMAC key for CSRF tokens (config CONSOLE_SECRET). */
  secret: string;
  sessionTtlSeconds: number;
  login: { maxFailures: number; windowSeconds: number };
  /** Honour X-Forwarded-For/-Proto (behind a TLS-terminating proxy). */
  trustProxy: boolean;
};

export type ConsoleOptions = LogOptions;

/** Builds the console (not listening): external plugins → app plugins → routes, as in fastify/demo. */
export async function buildConsoleApp(
  deps: ConsoleDependencies,
  options: ConsoleOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: buildLogger(options, loggerOptions),
    ...requestIdOptions,
    trustProxy: deps.trustProxy,
    bodyLimit: 16 * 1024,
  });
  if (options.httpMetrics) installHttpMetrics(app, options.httpMetrics);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);

  registerSecurityHeaders(app);
  const sessions = registerSessions(app, { db: deps.db, ttlSeconds: deps.sessionTtlSeconds });
  const csrf = registerCsrf(app, {
    secret: deps.secret,
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
  const throttle = createLoginThrottle({
    redis: deps.redis,
    prefix: deps.redisPrefix,
    maxFailures: deps.login.maxFailures,
    windowSeconds: deps.login.windowSeconds,
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    // A database that does not answer is an outage (503, try again shortly), not a bug.
    const unavailable = isDatabaseUnavailableError(error);
    const status = unavailable
      ? 503
      : typeof error.statusCode === 'number' && error.statusCode >= 400
        ? error.statusCode
        : 500;
    if (unavailable) request.log.error({ err: error }, 'database unavailable');
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

  app.get('/assets/console.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(CONSOLE_CSS),
  );
  app.get('/assets/console.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(CONSOLE_JS),
  );
  app.get('/healthz', (_request, reply) => reply.send({ status: 'ok' }));

  await app.register(authRoutes, { db: deps.db, sessions, csrf, throttle });
  await app.register(keysRoutes, { db: deps.db, csrf });

  await app.ready();
  return app;
}
