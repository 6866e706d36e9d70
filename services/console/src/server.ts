// `npm run console`: the key console. Config, logger, listen, graceful close; the app is in app.ts.
import { consoleMailSettingsOrExit, loadConfigOrExit } from '@directory/config';
import { serveUntilSignal } from '@directory/http-server';
import { openStores } from '@directory/keyed-access';
import { postgresCheck, redisCheck, startProcessOperations, startTracing } from '@directory/observability';
import { webhookOptionsOf } from '@directory/webhooks';
import { buildConsoleApp } from './app.js';
import { createSmtpMailer } from './mail/mailer.js';

/** `directory console`: serves until a stop signal (serveUntilSignal). */
export async function startConsoleServer(): Promise<void> {
  const config = loadConfigOrExit();
  const mailSettings = consoleMailSettingsOrExit(config);
  await startTracing('console'); // before the stores are opened: their queries are traced from the start
  const { db, redis, close } = openStores(config, { autoPipelining: false });
  const mailer = createSmtpMailer({ smtpUrl: mailSettings.smtpUrl, from: mailSettings.from });
  const operations = await startProcessOperations({
    service: 'console',
    host: config.OPS_HOST,
    port: config.CONSOLE_OPS_PORT,
    checks: [postgresCheck(db), redisCheck(redis)],
    readinessTimeoutMs: config.READINESS_TIMEOUT_MS,
  });

  const app = await buildConsoleApp(
    {
      db,
      redis,
      redisPrefix: config.REDIS_PREFIX,
      secret: config.CONSOLE_SECRET,
      sessionTtlSeconds: config.CONSOLE_SESSION_TTL_S,
      login: {
        maxFailures: config.CONSOLE_LOGIN_MAX_FAILURES,
        maxPerAccount: config.CONSOLE_LOGIN_MAX_PER_ACCOUNT,
        maxPerAddress: config.CONSOLE_LOGIN_MAX_PER_ADDRESS,
        windowSeconds: config.CONSOLE_LOGIN_WINDOW_S,
      },
      signUp: { max: config.CONSOLE_SIGNUP_MAX, windowSeconds: config.CONSOLE_SIGNUP_WINDOW_S },
      trustedProxies: config.TRUSTED_PROXIES,
      clientIpv6PrefixBits: config.CLIENT_IPV6_PREFIX_BITS,
      keyPolicy: { max: config.RATE_LIMIT_MAX, windowSeconds: config.RATE_LIMIT_WINDOW_S },
      webhooks: {
        options: webhookOptionsOf(config),
        limits: {
          testEventsMax: config.WEBHOOK_TEST_EVENTS_MAX,
          endpointChangesMax: config.WEBHOOK_ENDPOINT_CHANGES_MAX,
          windowSeconds: config.WEBHOOK_CONSOLE_WINDOW_S,
        },
      },
      mail: { mailer, publicUrl: mailSettings.publicUrl },
      accountLimits: {
        verificationMailsMax: config.CONSOLE_VERIFY_MAIL_MAX,
        resetsPerEmailMax: config.CONSOLE_RESET_MAX_PER_EMAIL,
        resetsPerAddressMax: config.CONSOLE_RESET_MAX_PER_ADDRESS,
        mailWindowSeconds: config.CONSOLE_MAIL_WINDOW_S,
        passwordChangesMax: config.CONSOLE_PASSWORD_CHANGE_MAX,
        passwordChangeWindowSeconds: config.CONSOLE_LOGIN_WINDOW_S,
        twoFactorCodesMax: config.CONSOLE_LOGIN_MAX_FAILURES,
        twoFactorWindowSeconds: config.CONSOLE_LOGIN_WINDOW_S,
      },
    },
    { logLevel: config.LOG_LEVEL, httpMetrics: operations.httpMetrics },
  );

  await serveUntilSignal(app, {
    host: config.HOST,
    port: config.CONSOLE_PORT,
    onClose: async () => {
      await operations.close();
      await close();
    },
    drainMs: config.SHUTDOWN_DRAIN_MS,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  });
  app.log.info(`console at http://${config.HOST}:${config.CONSOLE_PORT}/`);
}
