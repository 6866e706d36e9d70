import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleApp } from '@directory/console';
import {
  createTestDatabase,
  createTestRedis,
  startDroppingDnsServer,
  type DroppingDnsServer,
  type TestDatabase,
  type TestRedis,
} from '@directory/testing';
import { WEBHOOK_ENDPOINTS_PER_ACCOUNT, createEndpoint } from '@directory/webhooks';

// Endpoint registrations for names under a name server that never answers (an attacker's slow
// authoritative server): they are refused within the DNS budget (timeout × tries), a sign-in made
// meanwhile (scrypt, on libuv's thread pool) is not held behind them, and an account at its endpoint
// limit is refused without any DNS query. The console app is the real one, on PostgreSQL and Redis.

const PASSWORD = 'a-password-for-the-dns-spec';
const DNS = { timeoutMs: 1_000, tries: 2 };
const DNS_BUDGET_MS = DNS.timeoutMs * DNS.tries;
const REGISTRATIONS = 8;

type Session = { cookie: string; token: string };

/** A page's CSRF token and the cookies the answer set, joined with those already held. */
async function openPage(app: FastifyInstance, url: string, cookie = ''): Promise<Session> {
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

function postForm(app: FastifyInstance, url: string, session: Session, fields: Record<string, string>) {
  return app.inject({
    method: 'POST',
    url,
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...fields, _csrf: session.token }).toString(),
  });
}

/** Signs up `email` and returns a signed-in session on the webhooks page. */
async function signedUp(app: FastifyInstance, email: string): Promise<Session> {
  const form = await openPage(app, '/sign-up');
  const response = await postForm(app, '/sign-up', form, { email, password: PASSWORD });
  expect(response.statusCode).toBe(303);
  return openPage(app, '/webhooks', joinCookies(form.cookie, response.headers['set-cookie']));
}

describe('webhook registrations and a name server that never answers', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let dns: DroppingDnsServer;
  let app: FastifyInstance;
  const logs: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('security-webhook-dns');
    redis = createTestRedis('security-webhook-dns');
    dns = await startDroppingDnsServer();
    app = await buildConsoleApp(
      {
        db: database.db,
        redis: redis.redis,
        redisPrefix: redis.prefix,
        secret: 'security-webhook-dns-console-secret-0123456789',
        sessionTtlSeconds: 3600,
        login: { maxFailures: 5, maxPerAccount: 50, maxPerAddress: 100, windowSeconds: 60 },
        signUp: { max: 100, windowSeconds: 60 },
        trustedProxies: [],
        clientIpv6PrefixBits: 64,
        keyPolicy: { max: 120, windowSeconds: 60 },
        webhooks: {
          options: {
            secretKey: 'security-webhook-dns-secret-key-0123456789',
            allowLoopback: false,
            dns: { servers: [dns.address], ...DNS },
          },
          limits: { testEventsMax: 100, endpointChangesMax: 100, windowSeconds: 60 },
        },
      },
      { logLevel: 'info', logStream: { write: (line) => void logs.push(line) } },
    );
  });
  afterAll(async () => {
    await app.close();
    await dns.close();
    await redis.cleanup();
    await database.drop();
  });

  it('refuses registrations within the DNS budget, with one message, and signs in meanwhile', async () => {
    const holder = await signedUp(app, 'dns-holder@example.com');
    const other = await signedUp(app, 'dns-other@example.com');
    const signInForm = await openPage(app, '/sign-in');

    const started = performance.now();
    const registrations = Array.from({ length: REGISTRATIONS }, (_, index) =>
      postForm(app, '/webhooks', holder, {
        url: `https://hook-${index}.silent.example.test/hook`,
        countries: 'de',
      }).then((response) => ({ response, elapsedMs: performance.now() - started })),
    );
    // Every registration's A and AAAA queries are out before the sign-in starts.
    while (dns.asked().length < 2 * REGISTRATIONS && performance.now() - started < DNS_BUDGET_MS) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(dns.asked()).toHaveLength(2 * REGISTRATIONS);

    const signInStarted = performance.now();
    const signIn = await postForm(app, '/sign-in', signInForm, {
      email: 'dns-other@example.com',
      password: PASSWORD,
    });
    const signInMs = performance.now() - signInStarted;
    const signInEndedAt = performance.now() - started;
    const results = await Promise.all(registrations);

    expect(signIn.statusCode).toBe(303);
    // scrypt is not queued behind the lookups: the sign-in ends well before the registrations do.
    expect(signInMs).toBeLessThan(DNS.timeoutMs);
    expect(signInEndedAt).toBeLessThan(Math.min(...results.map((result) => result.elapsedMs)));
    for (const { response, elapsedMs } of results) {
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(
        'The endpoint was not added: the host of the URL is not a public address we can deliver to.',
      );
      // Refused by the budget (2 × 1 s), not by c-ares's own backed-off retries (about 3 s).
      expect(elapsedMs).toBeGreaterThanOrEqual(DNS_BUDGET_MS - 50);
      expect(elapsedMs).toBeLessThan(DNS_BUDGET_MS + 1_000);
    }
    // The reason stays in the server's log.
    expect(logs.filter((line) => line.includes('no DNS answer within 2000 ms'))).toHaveLength(REGISTRATIONS);
    expect(other.cookie).not.toBe(holder.cookie);
  });

  it('refuses an account at its endpoint limit before any DNS query', async () => {
    const session = await signedUp(app, 'dns-full@example.com');
    const account = await database.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'dns-full@example.com')
      .executeTakeFirstOrThrow();
    for (let index = 0; index < WEBHOOK_ENDPOINTS_PER_ACCOUNT; index += 1) {
      const created = await createEndpoint(
        database.db,
        { accountId: account.id, url: `https://full-${index}.example.test/hook`, countries: ['de'] },
        {
          secretKey: 'security-webhook-dns-secret-key-0123456789',
          allowLoopback: false,
          resolve: () => Promise.resolve(['93.184.216.34']),
        },
      );
      expect(created.ok).toBe(true);
    }
    const asked = dns.asked().length;
    const name = `over-${randomUUID()}.silent.example.test`;
    const started = performance.now();
    const response = await postForm(app, '/webhooks', session, {
      url: `https://${name}/hook`,
      countries: 'de',
    });
    expect(response.statusCode).toBe(409);
    expect(performance.now() - started).toBeLessThan(DNS.timeoutMs);
    expect(dns.asked()).toHaveLength(asked);
  });
});
