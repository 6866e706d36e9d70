import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { sql } from 'kysely';
import { buildConsoleApp, createSmtpMailer, type ConsoleDependencies } from '@directory/console';
import { startMailReceiver, type MailReceiver, type TestDatabase, type TestRedis } from '@directory/testing';

/** Account e-mail limits loose enough to stay out of the way of the specs that use these helpers. */
export const LOOSE_ACCOUNT_LIMITS: ConsoleDependencies['accountLimits'] = {
  verificationMailsMax: 100,
  resetsPerEmailMax: 100,
  resetsPerAddressMax: 100,
  mailWindowSeconds: 60,
  passwordChangesMax: 100,
  passwordChangeWindowSeconds: 60,
};

/**
 * A console's mail settings over a local SMTP receiver of its own; the console closes the mailer with
 * itself, and the receiver goes with it.
 */
export async function consoleMail(): Promise<{ mail: ConsoleDependencies['mail']; receiver: MailReceiver }> {
  const receiver = await startMailReceiver();
  const smtp = createSmtpMailer({ smtpUrl: receiver.url, from: 'no-reply@console.test' });
  const mailer = {
    send: smtp.send,
    close: () => {
      smtp.close();
      void receiver.close();
    },
  };
  return { mail: { mailer, publicUrl: 'https://console.test' }, receiver };
}

// Each webhook console's database, for `signedUp` (which marks the address verified).
const databases = new WeakMap<FastifyInstance, TestDatabase>();

/** A browser's hold on the console: its cookies and the CSRF token of the last page it opened. */
export type ConsoleSession = { cookie: string; token: string };

/**
 * The real console app on a spec's own database and Redis prefix, with the webhook pages and loose
 * sign-in limits (the specs here are about webhooks); `logs` receives every log line.
 */
export async function buildWebhookConsole(input: {
  database: TestDatabase;
  redis: TestRedis;
  webhooks: NonNullable<ConsoleDependencies['webhooks']>;
  logs?: string[];
}): Promise<FastifyInstance> {
  const logs = input.logs ?? [];
  const mail = await consoleMail();
  const app = await buildConsoleApp(
    {
      db: input.database.db,
      redis: input.redis.redis,
      redisPrefix: input.redis.prefix,
      secret: 'security-webhook-console-secret-0123456789',
      sessionTtlSeconds: 3600,
      login: { maxFailures: 5, maxPerAccount: 50, maxPerAddress: 100, windowSeconds: 60 },
      signUp: { max: 100, windowSeconds: 60 },
      trustedProxies: [],
      clientIpv6PrefixBits: 64,
      keyPolicy: { max: 120, windowSeconds: 60 },
      webhooks: input.webhooks,
      mail: mail.mail,
      accountLimits: LOOSE_ACCOUNT_LIMITS,
    },
    { logLevel: 'info', logStream: { write: (line) => void logs.push(line) } },
  );
  databases.set(app, input.database);
  return app;
}

/** A page's CSRF token and the cookies the answer set, joined with those already held. */
export async function openPage(app: FastifyInstance, url: string, cookie = ''): Promise<ConsoleSession> {
  const response = await app.inject({ url, headers: cookie === '' ? {} : { cookie } });
  const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
  if (token === undefined) throw new Error(`no CSRF token on ${url}`);
  return { cookie: joinCookies(cookie, response.headers['set-cookie']), token };
}

function joinCookies(held: string, set: string | string[] | undefined): string {
  const jar = new Map(
    held
      .split('; ')
      .filter((pair) => pair !== '')
      .map((pair) => [pair.split('=')[0] ?? '', pair] as const),
  );
  for (const line of [set ?? []].flat()) {
    const pair = line.split(';')[0] ?? '';
    jar.set(pair.split('=')[0] ?? '', pair);
  }
  return [...jar.values()].join('; ');
}

/** Posts a form with the session's cookies and CSRF token. */
export function postForm(
  app: FastifyInstance,
  url: string,
  session: ConsoleSession,
  fields: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...fields, _csrf: session.token }).toString(),
  });
}

/**
 * Signs up `email` through the form, marks its address verified (as following the mailed link would:
 * endpoints need it), and returns a signed-in session on the webhooks page.
 */
export async function signedUp(
  app: FastifyInstance,
  email: string,
  password: string,
): Promise<ConsoleSession> {
  const form = await openPage(app, '/sign-up');
  const response = await postForm(app, '/sign-up', form, { email, password });
  expect(response.statusCode).toBe(303);
  const database = databases.get(app);
  if (database !== undefined)
    await sql`update accounts set email_verified_at = now() where lower(email) = lower(${email})`.execute(
      database.db,
    );
  return openPage(app, '/webhooks', joinCookies(form.cookie, response.headers['set-cookie']));
}
