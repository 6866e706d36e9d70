import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@directory/config';
import { toSearchDocument } from '@directory/domain';
import { savePlaceStates } from '@directory/event-store';
import { createApiKey } from '@directory/keys';
import {
  SITE_ORIGIN,
  createTestDatabase,
  createTestRedis,
  placeState,
  waitForFeedFence,
  type TestDatabase,
  type TestRedis,
} from '@directory/testing';
import { startWebhooks, type RunningWebhooks } from '@directory/webhooks';
import { buildWebhookConsole, postForm, signedUp, type ConsoleSession } from './support/console-forms.js';

// One account turns its webhooks against everyone: five endpoints on a receiver that answers only after
// 9.9 s, and 2,000 "Send test event" posts. Another account's endpoint, following the same country,
// must still get each live change within 3 s; the flood gets 429 pages past its budget, and Redis holds
// nothing for the backlog (it lives in PostgreSQL, bounded per endpoint).

const SECRET_KEY = 'webhook-flood-spec-secret-key-0123456789abcdef';
const PASSWORD = 'flood-spec-password-1234';
const SLOW_ANSWER_MS = 9_900;
const TEST_EVENT_POSTS = 2_000;
const LIVE_CHANGES = 20;
const CHANGE_EVERY_MS = 400;

type Session = ConsoleSession & { accountId: string };

/** Signs up through the console's form; the session on the webhooks page, and its account. */
async function signUp(app: FastifyInstance, database: TestDatabase, email: string): Promise<Session> {
  const session = await signedUp(app, email, PASSWORD);
  const account = await database.db
    .selectFrom('accounts')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return { ...session, accountId: account.id };
}

/** A receiver on loopback answering 200 after `delayMs`; `arrivals` has each body's arrival time. */
async function startReceiver(delayMs: number) {
  const arrivals: Array<{ at: number; body: string }> = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      arrivals.push({ at: Date.now(), body: Buffer.concat(chunks).toString('utf8') });
      setTimeout(() => response.writeHead(200).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

describe('webhook fan-out under a flood from one account', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let app: FastifyInstance;
  let webhooks: RunningWebhooks | undefined;
  const receivers: Array<{ close: () => Promise<void> }> = [];

  beforeAll(async () => {
    database = await createTestDatabase('webhook-flood');
    redis = createTestRedis('webhook-flood');
    const config = loadConfig({});
    app = await buildWebhookConsole({
      database,
      redis,
      webhooks: {
        options: { secretKey: SECRET_KEY, allowLoopback: true },
        // The defaults a deployment runs with.
        limits: {
          testEventsMax: config.WEBHOOK_TEST_EVENTS_MAX,
          endpointChangesMax: config.WEBHOOK_ENDPOINT_CHANGES_MAX,
          windowSeconds: config.WEBHOOK_CONSOLE_WINDOW_S,
        },
      },
    });
  });

  afterAll(async () => {
    await webhooks?.close();
    for (const receiver of receivers) await receiver.close();
    await app.close();
    await redis.cleanup();
    await database.drop();
  });

  it("keeps another account's deliveries within 3 s, refuses the flood with 429 and keeps no backlog in Redis", async () => {
    const slow = await startReceiver(SLOW_ANSWER_MS);
    const fast = await startReceiver(0);
    receivers.push(slow, fast);
    const flooder = await signUp(app, database, 'flooder@example.com');
    const bystander = await signUp(app, database, 'bystander@example.com');
    for (const session of [flooder, bystander])
      await createApiKey(database.db, { accountId: session.accountId, name: 'live' });

    for (let n = 0; n < 5; n += 1) {
      const created = await postForm(app, '/webhooks', flooder, { url: `${slow.url}/${n}`, countries: 'de' });
      expect(created.statusCode).toBe(200);
    }
    expect((await postForm(app, '/webhooks', bystander, { url: fast.url, countries: 'de' })).statusCode).toBe(
      200,
    );
    const flooderEndpoints = await database.db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('account_id', '=', flooder.accountId)
      .execute();
    expect(flooderEndpoints).toHaveLength(5);

    // The worker's webhook side with the deployment's defaults (attempts in flight per process, per
    // endpoint and per account), and an attempt limit above the slow receiver's answer.
    const config = loadConfig({
      REDIS_PREFIX: redis.prefix,
      WEBHOOK_TIMEOUT_MS: '12000',
      WEBHOOK_POLL_MS: '100',
    });
    webhooks = startWebhooks(config, {
      db: database.db,
      logger: { warn: () => {} },
      options: { secretKey: SECRET_KEY, allowLoopback: true },
    });

    // The flood: 2,000 test events over the five endpoints, 50 posts at a time.
    const statuses = new Map<number, number>();
    let retryAfter = '';
    for (let sent = 0; sent < TEST_EVENT_POSTS; sent += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, n) =>
          postForm(app, `/webhooks/${flooderEndpoints[(sent + n) % 5]?.id}/test`, flooder),
        ),
      );
      for (const answer of answers) {
        statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
        if (answer.statusCode === 429) retryAfter = String(answer.headers['retry-after']);
      }
    }
    const budget = config.WEBHOOK_TEST_EVENTS_MAX;
    expect(Object.fromEntries(statuses)).toEqual({ 200: budget, 429: TEST_EVENT_POSTS - budget });
    expect(Number(retryAfter)).toBeGreaterThan(0);

    // Live changes in the country both accounts follow: each is one delivery to the bystander and five
    // to the flooder's slow endpoints.
    const madeAt = new Map<string, number>();
    for (let n = 0; n < LIVE_CHANGES; n += 1) {
      const id = `flood-live-${n}`;
      const state = placeState({ id, name: `Praxis ${n}`, version: 1, country: 'de' });
      madeAt.set(id, Date.now());
      await savePlaceStates(database.db, [
        { placeId: id, stateVersion: 1, document: toSearchDocument(state, { siteOrigin: SITE_ORIGIN }) },
      ]);
      await new Promise((resolve) => setTimeout(resolve, CHANGE_EVERY_MS));
    }
    await waitForFeedFence(database.db);
    const deadline = Date.now() + 15_000;
    const bystanderLatencies = () =>
      fast.arrivals.flatMap(({ at, body }) => {
        const id = (JSON.parse(body) as { data: { id?: string } }).data.id ?? '';
        const made = madeAt.get(id);
        return made === undefined ? [] : [at - made];
      });
    while (bystanderLatencies().length < LIVE_CHANGES && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const latencies = bystanderLatencies().sort((a, b) => a - b);
    expect(latencies).toHaveLength(LIVE_CHANGES);
    const p99 = percentile(latencies, 0.99);
    console.log(
      `bystander deliveries: p50 ${percentile(latencies, 0.5)} ms, p99 ${p99} ms, max ${latencies.at(-1)} ms; ` +
        `flooder attempts started ${slow.arrivals.length}`,
    );
    expect(p99).toBeLessThanOrEqual(3_000);

    // The flooder never has more than its account's attempts in flight at once.
    const inFlight = await database.db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('webhook_endpoints.account_id', '=', flooder.accountId)
      .where('webhook_deliveries.status', '=', 'pending')
      .where('webhook_deliveries.leased_until', '>=', new Date())
      .executeTakeFirstOrThrow();
    expect(Number(inFlight.count)).toBeLessThanOrEqual(config.WEBHOOK_ACCOUNT_CONCURRENCY);

    // Redis holds the console's budget counters and nothing of the backlog.
    const keys = await redis.redis.keys(`${redis.prefix}:*`);
    let bytes = 0;
    for (const key of keys) bytes += Number((await redis.redis.call('MEMORY', 'USAGE', key)) ?? 0);
    console.log(`redis under the spec's prefix: ${keys.length} keys, ${bytes} bytes`);
    expect(keys.length).toBeLessThanOrEqual(10);
    expect(bytes).toBeLessThan(64 * 1024);
  });
});
