import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { buildConsoleApp, type ConsoleDependencies } from '@directory/console';
import type { TestDatabase, TestRedis } from '@directory/testing';

/** A browser's hold on the console: its cookies and the CSRF token of the last page it opened. */
export type ConsoleSession = { cookie: string; token: string };

/**
 * The real console app on a spec's own database and Redis prefix, with the webhook pages and loose
 * sign-in limits (the specs here are about webhooks); `logs` receives every log line.
 */
export function buildWebhookConsole(input: {
  database: TestDatabase;
  redis: TestRedis;
  webhooks: NonNullable<ConsoleDependencies['webhooks']>;
  logs?: string[];
}): Promise<FastifyInstance> {
  const logs = input.logs ?? [];
  return buildConsoleApp(
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
    },
    { logLevel: 'info', logStream: { write: (line) => void logs.push(line) } },
  );
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

/** Signs up `email` through the form and returns a signed-in session on the webhooks page. */
export async function signedUp(
  app: FastifyInstance,
  email: string,
  password: string,
): Promise<ConsoleSession> {
  const form = await openPage(app, '/sign-up');
  const response = await postForm(app, '/sign-up', form, { email, password });
  expect(response.statusCode).toBe(303);
  return openPage(app, '/webhooks', joinCookies(form.cookie, response.headers['set-cookie']));
}
