import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  createTestRedis,
  startDroppingDnsServer,
  type DroppingDnsServer,
  type TestDatabase,
  type TestRedis,
} from '@directory/testing';
import { WEBHOOK_ENDPOINTS_PER_ACCOUNT, createEndpoint } from '@directory/webhooks';
import { buildWebhookConsole, openPage, postForm, signedUp } from './support/console-forms.js';

// Endpoint registrations for names under a name server that never answers (an attacker's slow
// authoritative server): they are refused within the DNS budget (timeout × tries), a sign-in made
// meanwhile (scrypt, on libuv's thread pool) is not held behind them, and an account at its endpoint
// limit is refused without any DNS query. The console app is the real one, on PostgreSQL and Redis.

const PASSWORD = 'a-password-for-the-dns-spec';
const DNS = { timeoutMs: 1_000, tries: 2 };
const DNS_BUDGET_MS = DNS.timeoutMs * DNS.tries;
const REGISTRATIONS = 8;

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
    app = await buildWebhookConsole({
      database,
      redis,
      logs,
      webhooks: {
        options: {
          secretKey: 'security-webhook-dns-secret-key-0123456789',
          allowLoopback: false,
          dns: { servers: [dns.address], ...DNS },
        },
        limits: { testEventsMax: 100, endpointChangesMax: 100, windowSeconds: 60 },
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await dns.close();
    await redis.cleanup();
    await database.drop();
  });

  it('refuses registrations within the DNS budget, with one message, and signs in meanwhile', async () => {
    const holder = await signedUp(app, 'dns-holder@example.com', PASSWORD);
    const other = await signedUp(app, 'dns-other@example.com', PASSWORD);
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
    const session = await signedUp(app, 'dns-full@example.com', PASSWORD);
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
