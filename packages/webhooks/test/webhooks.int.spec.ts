import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@directory/config';
import { accountCounterRedisKey, createAccountCharger } from '@directory/keyed-access';
import { toSearchDocument, type CountryCode } from '@directory/domain';
import { savePlaceStates } from '@directory/event-store';
import {
  SITE_ORIGIN,
  createTestDatabase,
  createTestRedis,
  placeState,
  waitForFeedFence,
  type TestDatabase,
  type TestRedis,
} from '@directory/testing';
import {
  blockAccount,
  disableEndpointByOperator,
  listEndpointsForOperator,
  unblockAccount,
} from '../src/operator.repository.js';
import {
  createEndpoint,
  claimDelivery,
  dispatchOnce,
  sendTestEvent,
  setEndpointEnabled,
  startWebhooks,
  type AccountCharge,
  type RunningWebhooks,
  type WebhookOptions,
} from '../src/index.js';

const SECRET_KEY = 'webhooks-int-spec-secret-key-0123456789abcdef';

type Received = { headers: IncomingHttpHeaders; body: string };

/** A receiver on loopback: answers with the next status of `answers` (then the last one), counts connections. */
type Receiver = {
  url: string;
  port: number;
  received: Received[];
  connections: number;
  answers: number[];
  close: () => Promise<void>;
};

async function startReceiver(answers: number[] = [200]): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    connections: 0,
    answers,
    close: async () => {},
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status =
        receiver.answers.length > 1 ? (receiver.answers.shift() ?? 200) : (receiver.answers[0] ?? 200);
      response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.on('connection', () => (receiver.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

let database: TestDatabase;
let redis: TestRedis;
const running: Array<{ close: () => Promise<void> }> = [];

/** The worker's webhook side (dispatcher + delivery worker) with settings of the test's own. */
function startWorkerSide(
  settings: Record<string, string>,
  options: WebhookOptions,
  chargeAttempt?: (accountId: string) => Promise<AccountCharge>,
): RunningWebhooks {
  const config = loadConfig({
    REDIS_PREFIX: redis.prefix,
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_DELAYS_MS: '50,50,50',
    ...settings,
  });
  const webhooks = startWebhooks(config, {
    db: database.db,
    logger: { warn: () => {} },
    options,
    ...(chargeAttempt === undefined ? {} : { chargeAttempt }),
  });
  running.push(webhooks);
  return webhooks;
}

/** An account with an active live key (webhooks are sent only to such accounts' endpoints). */
async function newAccount(): Promise<string> {
  const id = randomUUID();
  await database.db
    .insertInto('accounts')
    .values({ id, email: `${id}@example.com`, password_hash: '!' })
    .execute();
  await database.db
    .insertInto('api_keys')
    .values({ id: randomUUID(), account_id: id, name: 'live', prefix: 'dk_live_spec', secret_hash: id })
    .execute();
  return id;
}

async function register(url: string, options: WebhookOptions, countries: CountryCode[] = ['de']) {
  const created = await createEndpoint(
    database.db,
    { accountId: await newAccount(), url, countries },
    options,
  );
  if (!created.ok) throw new Error(created.error);
  // The feed position starts at the cluster's oldest open transaction, which another database's long
  // transaction can hold back to before an earlier test's writes: each test follows its own changes only.
  await sql`update webhook_feed_positions set xid = pg_snapshot_xmax(pg_current_snapshot()), place_id = ''`.execute(
    database.db,
  );
  return created.value;
}

/** Writes places the way the worker does (the event store's own function); resolves once the feed shows them. */
async function writePlaces(
  places: Array<{
    id: string;
    version: number;
    country?: CountryCode;
    removed?: boolean;
    mergedInto?: string;
  }>,
) {
  await savePlaceStates(
    database.db,
    places.map((place) => {
      const folded = placeState({
        id: place.id,
        name: `${place.id} v${place.version}`,
        version: place.version,
        ...(place.removed === true ? { suppressed: true } : { country: place.country ?? 'de' }),
      });
      const merge =
        place.mergedInto === undefined
          ? null
          : {
              placeId: place.id,
              mergedInto: place.mergedInto,
              mergedAt: '2026-02-01T00:00:00.000Z',
              profilePage: null,
            };
      const state =
        merge === null ? folded : { ...folded, mergedInto: merge.mergedInto, mergedAt: merge.mergedAt };
      return {
        placeId: place.id,
        stateVersion: place.version,
        document: toSearchDocument(state, { siteOrigin: SITE_ORIGIN }),
        ...(merge === null ? {} : { merge }),
      };
    }),
  );
  await waitForFeedFence(database.db);
}

async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check());) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const deliveriesOf = (endpointId: string) =>
  database.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at')
    .execute();

const LOOPBACK: WebhookOptions = { secretKey: SECRET_KEY, allowLoopback: true };
const DISPATCH_LIMITS = { maxPendingPerEndpoint: 10_000, maxPending: 100_000 };

beforeAll(async () => {
  database = await createTestDatabase('webhooks');
  redis = createTestRedis('webhooks');
});

afterEach(async () => {
  for (const webhooks of running.splice(0)) await webhooks.close();
  // Each test follows its own endpoints only.
  await database.db.deleteFrom('webhook_endpoints').execute();
  await database.db.deleteFrom('webhook_feed_positions').execute();
});

afterAll(async () => {
  await redis.cleanup();
  await database.drop();
});

describe('signed webhooks', () => {
  it('delivers each change once, signed so that standardwebhooks verifies it, and a test event', async () => {
    const receiver = await startReceiver();
    const { endpoint, secret } = await register(receiver.url, LOOPBACK);
    startWorkerSide({}, LOOPBACK);

    await writePlaces([{ id: 'wh-once', version: 1 }]);
    await until(() => receiver.received.length === 1, 'the upsert');
    await writePlaces([{ id: 'wh-once', version: 2, removed: true }]);
    await until(() => receiver.received.length === 2, 'the removal');

    const webhook = new Webhook(secret);
    const [upsert, removal] = receiver.received.map((request) =>
      webhook.verify(request.body, request.headers as Record<string, string>),
    );
    expect(upsert).toMatchObject({
      type: 'doctor.upserted',
      data: { id: 'wh-once', country: 'de', version: 1, doctor: { name: 'wh-once v1' } },
    });
    expect(removal).toMatchObject({
      type: 'doctor.deleted',
      data: { id: 'wh-once', version: 2, doctor: null },
    });
    const first = receiver.received[0];
    expect(first?.headers['content-type']).toBe('application/json');
    expect((upsert as { timestamp: string }).timestamp).toBe(
      (upsert as { data: { changedAt: string } }).data.changedAt,
    );

    const test = await sendTestEvent({ db: database.db, options: LOOPBACK }, endpoint.accountId, endpoint.id);
    await until(() => receiver.received.length === 3, 'the test event');
    expect(
      webhook.verify(
        receiver.received[2]?.body ?? '',
        receiver.received[2]?.headers as Record<string, string>,
      ),
    ).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String) as string,
      data: { endpointId: endpoint.id },
    });
    expect(receiver.received[2]?.headers['webhook-id']).toBe(test?.id);

    // Several more polls: nothing is sent twice.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(3);
    const rows = await deliveriesOf(endpoint.id);
    expect(rows.map((row) => [row.event_type, row.status, row.attempts, row.last_status_code])).toEqual([
      ['doctor.upserted', 'delivered', 1, 200],
      ['doctor.deleted', 'delivered', 1, 200],
      ['webhook.test', 'delivered', 1, 200],
    ]);
    expect(rows[0]?.place_version).toBe(1);
    await receiver.close();
  });

  it('retries a failed attempt with the same id and body, then delivers', async () => {
    const receiver = await startReceiver([500, 200]);
    const { endpoint, secret } = await register(receiver.url, LOOPBACK);
    startWorkerSide({}, LOOPBACK);

    await writePlaces([{ id: 'wh-retry', version: 1 }]);
    await until(() => receiver.received.length === 2, 'the retry');
    const [failed, retried] = receiver.received;
    expect(retried?.headers['webhook-id']).toBe(failed?.headers['webhook-id']);
    expect(retried?.body).toBe(failed?.body);
    expect(
      new Webhook(secret).verify(retried?.body ?? '', retried?.headers as Record<string, string>),
    ).toMatchObject({
      data: { id: 'wh-retry' },
    });
    await until(async () => (await deliveriesOf(endpoint.id))[0]?.status === 'delivered', 'delivered');
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ attempts: 2, last_status_code: 200, last_error: null });
    const stored = await database.db
      .selectFrom('webhook_endpoints')
      .select(['failing_since', 'enabled'])
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ failing_since: null, enabled: true });
    await receiver.close();
  });

  it('disables an endpoint failing for the whole window and abandons its pending deliveries', async () => {
    const receiver = await startReceiver([500]);
    const { endpoint } = await register(receiver.url, LOOPBACK);
    startWorkerSide(
      { WEBHOOK_DISABLE_AFTER_MS: '150', WEBHOOK_RETRY_DELAYS_MS: '60,60,60,60,60,60,60,60' },
      LOOPBACK,
    );

    await writePlaces([
      { id: 'wh-down-a', version: 1 },
      { id: 'wh-down-b', version: 1 },
    ]);
    await until(async () => {
      const row = await database.db
        .selectFrom('webhook_endpoints')
        .select('enabled')
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      return !row.enabled;
    }, 'the endpoint to be disabled');
    const stored = await database.db
      .selectFrom('webhook_endpoints')
      .select(['disabled_reason', 'failing_since'])
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(stored.disabled_reason).toBe(`failing since ${stored.failing_since?.toISOString()}: HTTP 500`);
    await until(
      async () => (await deliveriesOf(endpoint.id)).every((row) => row.status === 'abandoned'),
      'abandoned',
    );
    const rows = await deliveriesOf(endpoint.id);
    expect(rows).toHaveLength(2);
    // Nothing more is sent to a disabled endpoint, and its later changes make no deliveries.
    const sent = receiver.received.length;
    await writePlaces([{ id: 'wh-down-c', version: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(sent);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(2);
    await receiver.close();
  });

  it('refuses names resolving to private addresses at registration, and a rebound name at delivery, connecting nowhere', async () => {
    const receiver = await startReceiver();
    const zone: Record<string, string[]> = {
      'inside.example.test': ['10.0.0.1'],
      'self.example.test': ['127.0.0.1'],
      'hooks.example.test': ['93.184.216.34'],
    };
    const options: WebhookOptions = {
      secretKey: SECRET_KEY,
      allowLoopback: false,
      allowedPorts: [443, receiver.port],
      resolve: (host) => Promise.resolve(zone[host] ?? []),
    };
    const accountId = await newAccount();
    for (const host of ['inside.example.test', 'self.example.test']) {
      const refused = await createEndpoint(
        database.db,
        { accountId, url: `https://${host}:${receiver.port}/hook`, countries: ['de'] },
        options,
      );
      // The one answer to every refused address: a registration cannot probe which names exist inside.
      expect(refused).toEqual({
        ok: false,
        error: 'the host of the URL is not a public address we can deliver to',
      });
    }
    const { endpoint } = await register(`https://hooks.example.test:${receiver.port}/hook`, options);
    // Rebinding: the name now points at the receiver on this machine.
    zone['hooks.example.test'] = ['127.0.0.1'];
    startWorkerSide({ WEBHOOK_RETRY_DELAYS_MS: '20,20' }, options);

    await writePlaces([{ id: 'wh-rebound', version: 1 }]);
    await until(
      async () => (await deliveriesOf(endpoint.id))[0]?.status === 'failed',
      'the delivery to fail',
    );
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({
      attempts: 3,
      last_status_code: null,
      last_error: 'refused: the host of the URL is not a public address we can deliver to',
    });
    expect(receiver.connections).toBe(0);
    expect(receiver.received).toEqual([]);
    await receiver.close();
  });

  it('connects to the address the check approved, not to a fresh DNS answer', async () => {
    // Only the injected resolver knows this name: the system's would not find it. The attempt reaches the
    // receiver (an http server: the TLS handshake fails there) because it connects to the checked address.
    const receiver = await startReceiver();
    const options: WebhookOptions = {
      secretKey: SECRET_KEY,
      allowLoopback: true,
      resolve: (host) => Promise.resolve(host === 'pinned.example.test' ? ['127.0.0.1'] : []),
    };
    const { endpoint } = await register(`https://pinned.example.test:${receiver.port}/hook`, options);
    startWorkerSide({ WEBHOOK_RETRY_DELAYS_MS: '20' }, options);

    await writePlaces([{ id: 'wh-pinned', version: 1 }]);
    await until(async () => (await deliveriesOf(endpoint.id))[0]?.status === 'failed', 'the attempt');
    expect(receiver.connections).toBe(2); // the attempt and its retry
    const [row] = await deliveriesOf(endpoint.id);
    expect(row?.last_error).not.toMatch(/ENOTFOUND|EAI_AGAIN|refused/);
    await receiver.close();
  });

  it('gives up an attempt the receiver does not answer within the timeout', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer(() => {
      // Never answers.
    });
    silent.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const { endpoint } = await register(`http://127.0.0.1:${port}/hook`, LOOPBACK);
    startWorkerSide({ WEBHOOK_TIMEOUT_MS: '200', WEBHOOK_RETRY_DELAYS_MS: '20' }, LOOPBACK);

    await writePlaces([{ id: 'wh-silent', version: 1 }]);
    await until(async () => (await deliveriesOf(endpoint.id))[0]?.status === 'failed', 'the timeout');
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ attempts: 2, last_status_code: null, last_error: 'timed out after 200 ms' });
    expect(row?.last_latency_ms).toBeGreaterThanOrEqual(199);
    expect(row?.last_latency_ms).toBeLessThan(2_000);
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('attempts again a delivery whose worker died mid-attempt, and abandons what waited for an endpoint switched off', async () => {
    const receiver = await startReceiver();
    const on = await register(receiver.url, LOOPBACK);
    const off = await register(receiver.url, LOOPBACK);
    // Deliveries whose attempt was claimed by a worker that died: the lease ran out, no attempt counted.
    for (const endpointId of [on.endpoint.id, off.endpoint.id]) {
      await sql`
        insert into webhook_deliveries (id, endpoint_id, event_type, payload, leased_until)
        values (${`msg_lost_${endpointId}`}, ${endpointId}::uuid, 'webhook.test', '{"type":"webhook.test"}',
                now() - interval '1 second')`.execute(database.db);
    }
    await setEndpointEnabled(database.db, off.endpoint.accountId, off.endpoint.id, false);
    expect(await deliveriesOf(off.endpoint.id)).toMatchObject([{ status: 'abandoned', payload: '' }]);
    startWorkerSide({}, LOOPBACK);
    await until(async () => (await deliveriesOf(on.endpoint.id))[0]?.status === 'delivered', 'the lost one');
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([
      `msg_lost_${on.endpoint.id}`,
    ]);
    // A final delivery keeps its outcome, not its body.
    expect(await deliveriesOf(on.endpoint.id)).toMatchObject([
      { attempts: 1, payload: '', leased_until: null },
    ]);
    await receiver.close();
  });

  it('never creates a delivery twice with two dispatchers at work', async () => {
    const first = await register('https://hooks.example.test/a', {
      secretKey: SECRET_KEY,
      allowLoopback: false,
      resolve: () => Promise.resolve(['93.184.216.34']),
    });
    const second = await register(
      'https://hooks.example.test/b',
      {
        secretKey: SECRET_KEY,
        allowLoopback: false,
        resolve: () => Promise.resolve(['93.184.216.34']),
      },
      ['de', 'it'],
    );
    let writing = true;
    const dispatcher = async () => {
      while (writing) await dispatchOnce(database.db, { ...DISPATCH_LIMITS, batchSize: 3 });
    };
    const dispatchers = Promise.all([dispatcher(), dispatcher()]);
    const writes = Array.from({ length: 10 }, (_, batch) =>
      writePlaces([
        { id: `wh-race-${batch}-de`, version: 1 },
        { id: `wh-race-${batch}-it`, version: 1, country: 'it' },
        { id: `wh-race-${batch}-es`, version: 1, country: 'es' },
      ]),
    );
    await Promise.all(writes);
    await waitForFeedFence(database.db);
    writing = false;
    await dispatchers;
    while (((await dispatchOnce(database.db, DISPATCH_LIMITS)) ?? 0) > 0);

    const rows = await database.db
      .selectFrom('webhook_deliveries')
      .select(['endpoint_id', 'place_id'])
      .where('endpoint_id', 'in', [first.endpoint.id, second.endpoint.id])
      .execute();
    const keys = rows
      .map((row) => `${row.endpoint_id === first.endpoint.id ? 'a' : 'b'} ${row.place_id}`)
      .sort();
    const expected = Array.from({ length: 10 }, (_, batch) => [
      `a wh-race-${batch}-de`,
      `b wh-race-${batch}-de`,
      `b wh-race-${batch}-it`,
    ])
      .flat()
      .sort();
    expect(keys).toEqual(expected);
  });
});

describe('webhook limits', () => {
  /** Deliveries of a place, as the dispatcher left them. */
  const deliveriesOfPlace = (endpointId: string, placeId: string) =>
    database.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'place_version', 'attempts', 'payload'])
      .where('endpoint_id', '=', endpointId)
      .where('place_id', '=', placeId)
      .execute();
  const PUBLIC: WebhookOptions = {
    secretKey: SECRET_KEY,
    allowLoopback: false,
    resolve: () => Promise.resolve(['93.184.216.34']),
  };

  it('folds newer versions of a waiting place into one delivery; sends nothing to accounts without a live key or blocked', async () => {
    const receiving = await register('https://hooks.example.test/fold', PUBLIC);
    const keyless = await register('https://hooks.example.test/keyless', PUBLIC);
    await database.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('account_id', '=', keyless.endpoint.accountId)
      .execute();
    const blocked = await register('https://hooks.example.test/blocked', PUBLIC);
    await database.db
      .insertInto('webhook_account_blocks')
      .values({ account_id: blocked.endpoint.accountId, reason: 'abuse' })
      .execute();

    for (const version of [1, 2, 3]) {
      await writePlaces([{ id: 'wh-fold', version }]);
      expect(await dispatchOnce(database.db, DISPATCH_LIMITS)).toBe(1);
    }
    const [folded, ...more] = await deliveriesOfPlace(receiving.endpoint.id, 'wh-fold');
    expect(more).toEqual([]);
    expect(folded).toMatchObject({ status: 'pending', place_version: 3, attempts: 0 });
    expect(JSON.parse(folded?.payload ?? '')).toMatchObject({ data: { id: 'wh-fold', version: 3 } });
    expect(await deliveriesOf(keyless.endpoint.id)).toEqual([]);
    expect(await deliveriesOf(blocked.endpoint.id)).toEqual([]);

    // An attempted delivery is never rewritten: a newer version after it is a delivery of its own.
    await database.db
      .updateTable('webhook_deliveries')
      .set({ attempts: 1 })
      .where('endpoint_id', '=', receiving.endpoint.id)
      .execute();
    await writePlaces([{ id: 'wh-fold', version: 4 }]);
    await dispatchOnce(database.db, DISPATCH_LIMITS);
    expect(
      (await deliveriesOfPlace(receiving.endpoint.id, 'wh-fold')).map((row) => row.place_version).sort(),
    ).toEqual([3, 4]);
  });

  it('sends a merge as doctor.deleted naming the survivor in data.mergedInto (API 1.4)', async () => {
    const endpoint = await register('https://hooks.example.test/merges', PUBLIC);
    await writePlaces([
      { id: 'wh-survivor', version: 1 },
      { id: 'wh-merged', version: 1 },
      { id: 'wh-removed', version: 1 },
    ]);
    await dispatchOnce(database.db, DISPATCH_LIMITS);
    // A chain: wh-merged into wh-middle into wh-survivor (wh-middle was never served here).
    await writePlaces([
      { id: 'wh-middle', version: 1, removed: true, mergedInto: 'wh-survivor' },
      { id: 'wh-merged', version: 2, removed: true, mergedInto: 'wh-middle' },
      { id: 'wh-removed', version: 2, removed: true },
    ]);
    await dispatchOnce(database.db, DISPATCH_LIMITS);
    const bodies = new Map(
      (await deliveriesOf(endpoint.endpoint.id)).map((row) => [
        `${row.place_id}@${row.place_version}`,
        JSON.parse(row.payload) as { type: string; data: Record<string, unknown> },
      ]),
    );
    expect(bodies.get('wh-merged@2')).toMatchObject({
      type: 'doctor.deleted',
      data: { id: 'wh-merged', version: 2, doctor: null, mergedInto: 'wh-survivor' },
    });
    expect(bodies.get('wh-removed@2')?.type).toBe('doctor.deleted');
    expect(bodies.get('wh-removed@2')?.data).not.toHaveProperty('mergedInto');
    expect(bodies.get('wh-survivor@1')?.data).not.toHaveProperty('mergedInto');
  });

  it('sets aside a change whose stored document lacks what the allowlist needs, delivering the rest', async () => {
    const endpoint = await register('https://hooks.example.test/unwritable', PUBLIC);
    const broken = toSearchDocument(
      placeState({ id: 'wh-broken', name: 'broken', version: 1, country: 'de' }),
      {
        siteOrigin: SITE_ORIGIN,
      },
    );
    if (!broken.served) throw new Error('expected a served document');
    const { id: _dropped, ...doctorWithoutId } = broken.doctor;
    const document = { ...broken, doctor: doctorWithoutId as typeof broken.doctor };
    await savePlaceStates(database.db, [{ placeId: 'wh-broken', stateVersion: 1, document }]);
    await writePlaces([{ id: 'wh-sound', version: 1 }]);
    const setAside: Array<{ placeId: string }> = [];
    expect(
      await dispatchOnce(database.db, {
        ...DISPATCH_LIMITS,
        onUnwritable: (change) => void setAside.push(change),
      }),
    ).toBe(1);
    expect(setAside).toMatchObject([{ placeId: 'wh-broken', version: 1, country: 'de' }]);
    expect((await deliveriesOf(endpoint.endpoint.id)).map((row) => row.place_id)).toEqual(['wh-sound']);
    // The position moved past both: the next pass does not meet the broken change again.
    expect(
      await dispatchOnce(database.db, {
        ...DISPATCH_LIMITS,
        onUnwritable: (change) => void setAside.push(change),
      }),
    ).toBe(0);
    expect(setAside).toHaveLength(1);
  });

  it('disables an endpoint that falls behind by more than its cap, and waits (moving no position) at the global cap', async () => {
    const behind = await register('https://hooks.example.test/behind', PUBLIC);
    const limits = { maxPendingPerEndpoint: 3, maxPending: 100 };
    await writePlaces([
      { id: 'wh-cap-1', version: 1 },
      { id: 'wh-cap-2', version: 1 },
    ]);
    expect(await dispatchOnce(database.db, limits)).toBe(2);
    await writePlaces([
      { id: 'wh-cap-3', version: 1 },
      { id: 'wh-cap-4', version: 1 },
    ]);
    expect(await dispatchOnce(database.db, limits)).toBe(0);
    const endpoint = await database.db
      .selectFrom('webhook_endpoints')
      .select(['enabled', 'disabled_reason'])
      .where('id', '=', behind.endpoint.id)
      .executeTakeFirstOrThrow();
    expect(endpoint).toEqual({
      enabled: false,
      disabled_reason:
        'more than 3 deliveries were waiting: catch up from the changes feed, then enable the endpoint again',
    });
    expect((await deliveriesOf(behind.endpoint.id)).map((row) => [row.status, row.payload])).toEqual([
      ['abandoned', ''],
      ['abandoned', ''],
    ]);

    await setEndpointEnabled(database.db, behind.endpoint.accountId, behind.endpoint.id, true);
    // (Registering starts every position after what was written so far.)
    const other = await register('https://hooks.example.test/other', PUBLIC, ['it']);
    await writePlaces([
      { id: 'wh-cap-5', version: 1 },
      { id: 'wh-cap-6', version: 1 },
    ]);
    // Two pending deliveries of another endpoint reach a global cap of two: nothing is made, nothing skipped.
    const position = () =>
      database.db.selectFrom('webhook_feed_positions').selectAll().orderBy('country').execute();
    const before = await position();
    for (const n of [1, 2]) {
      await sql`insert into webhook_deliveries (id, endpoint_id, event_type, payload)
                values (${`msg_cap_${n}`}, ${other.endpoint.id}::uuid, 'webhook.test', '{}')`.execute(
        database.db,
      );
    }
    expect(await dispatchOnce(database.db, { maxPendingPerEndpoint: 10, maxPending: 2 })).toBeNull();
    expect(await position()).toEqual(before);
    expect(await dispatchOnce(database.db, { maxPendingPerEndpoint: 10, maxPending: 3 })).toBe(2);
  });

  it('claims fairly: the least recently served endpoint first, within the per-endpoint and per-account limits', async () => {
    const limits = { endpointConcurrency: 1, accountConcurrency: 2, leaseMs: 60_000 };
    const busy = await register('https://hooks.example.test/busy-1', PUBLIC);
    const endpointIds = [busy.endpoint.id];
    for (const path of ['busy-2', 'busy-3']) {
      const created = await createEndpoint(
        database.db,
        { accountId: busy.endpoint.accountId, url: `https://hooks.example.test/${path}`, countries: ['de'] },
        PUBLIC,
      );
      if (!created.ok) throw new Error(created.error);
      endpointIds.push(created.value.endpoint.id);
    }
    const quiet = await register('https://hooks.example.test/quiet', PUBLIC);
    const owner = new Map<string, string>();
    for (const [index, endpointId] of [...endpointIds, quiet.endpoint.id].entries()) {
      for (const n of [1, 2, 3]) {
        const id = `msg_fair_${index}_${n}`;
        owner.set(id, index < 3 ? `busy-${index + 1}` : 'quiet');
        await sql`insert into webhook_deliveries (id, endpoint_id, event_type, payload, created_at)
                  values (${id}, ${endpointId}::uuid, 'webhook.test', '{}', now() - make_interval(secs => ${10 - n}))`.execute(
          database.db,
        );
      }
    }
    const claimed: string[] = [];
    for (;;) {
      const id = await claimDelivery(database.db, limits);
      if (id === null) break;
      claimed.push(owner.get(id) ?? id);
    }
    // The busy account gets two attempts in flight (two of its endpoints, one each), the quiet one its own.
    const busyClaimed = claimed.filter((name) => name.startsWith('busy-'));
    expect(claimed.filter((name) => name === 'quiet')).toEqual(['quiet']);
    expect(new Set(busyClaimed).size).toBe(2);
    // An attempt ending frees its slot; the endpoint never served yet goes before the two served.
    const [firstBusy] = busyClaimed;
    const firstId = [...owner].find(([id, name]) => name === firstBusy && id.endsWith('_1'))?.[0] ?? '';
    await database.db
      .updateTable('webhook_deliveries')
      .set({ status: 'delivered', leased_until: null })
      .where('id', '=', firstId)
      .execute();
    const unserved = ['busy-1', 'busy-2', 'busy-3'].find((name) => !busyClaimed.includes(name));
    expect(owner.get((await claimDelivery(database.db, limits)) ?? '')).toBe(unserved);
    expect(await claimDelivery(database.db, limits)).toBeNull();
  });

  it("lets an operator see the backlog, disable an endpoint, and block and unblock an account's webhooks", async () => {
    const first = await register('https://hooks.example.test/op-1', PUBLIC);
    const second = await register('https://hooks.example.test/op-2', PUBLIC);
    const email = async (accountId: string) =>
      (
        await database.db
          .selectFrom('accounts')
          .select('email')
          .where('id', '=', accountId)
          .executeTakeFirstOrThrow()
      ).email;
    await writePlaces([
      { id: 'wh-op-1', version: 1 },
      { id: 'wh-op-2', version: 1 },
    ]);
    await dispatchOnce(database.db, DISPATCH_LIMITS);
    await sendTestEvent({ db: database.db, options: PUBLIC }, first.endpoint.accountId, first.endpoint.id);
    const listed = await listEndpointsForOperator(database.db);
    expect(listed.map((endpoint) => [endpoint.id, endpoint.pending])).toEqual([
      [first.endpoint.id, 3],
      [second.endpoint.id, 2],
    ]);

    expect(await disableEndpointByOperator(database.db, second.endpoint.id, 'abuse report 42')).toBe(true);
    expect(await disableEndpointByOperator(database.db, 'no-such-endpoint', 'x')).toBe(false);
    const [disabled] = await listEndpointsForOperator(database.db, {
      accountEmail: await email(second.endpoint.accountId),
    });
    expect(disabled).toMatchObject({
      enabled: false,
      disabledReason: 'disabled by an operator: abuse report 42',
      pending: 0,
    });

    const firstEmail = await email(first.endpoint.accountId);
    expect(await blockAccount(database.db, firstEmail.toUpperCase(), 'flooding')).toBe(true);
    expect(await blockAccount(database.db, 'nobody@example.com', 'x')).toBe(false);
    const [blocked] = await listEndpointsForOperator(database.db, { accountEmail: firstEmail });
    expect(blocked).toMatchObject({ enabled: true, pending: 0, blockedReason: 'flooding' });
    expect(
      await sendTestEvent({ db: database.db, options: PUBLIC }, first.endpoint.accountId, first.endpoint.id),
    ).toBeNull();
    await writePlaces([{ id: 'wh-op-3', version: 1 }]);
    expect(await dispatchOnce(database.db, DISPATCH_LIMITS)).toBe(0);

    expect(await unblockAccount(database.db, firstEmail)).toBe(true);
    expect(await unblockAccount(database.db, firstEmail)).toBe(false);
    await writePlaces([{ id: 'wh-op-4', version: 1 }]);
    expect(await dispatchOnce(database.db, DISPATCH_LIMITS)).toBe(1);
  });

  it("charges each attempt to the account's request ceiling, and postpones deliveries past it to the window's end", async () => {
    const receiver = await startReceiver();
    const { endpoint } = await register(receiver.url, LOOPBACK);
    const charge = createAccountCharger({
      redis: redis.redis,
      prefix: redis.prefix,
      accountMax: 2,
      windowSeconds: 60,
    });
    startWorkerSide({}, LOOPBACK, (accountId) => charge(accountId, 1));

    await writePlaces([
      { id: 'wh-ceiling-1', version: 1 },
      { id: 'wh-ceiling-2', version: 1 },
      { id: 'wh-ceiling-3', version: 1 },
    ]);
    await until(
      async () => (await deliveriesOf(endpoint.id)).filter((row) => row.status === 'delivered').length === 2,
      'two deliveries',
    );
    await until(
      async () =>
        (await deliveriesOf(endpoint.id)).some((row) => row.last_error?.startsWith('postponed') === true),
      'the third postponed',
    );
    const rows = await deliveriesOf(endpoint.id);
    const postponed = rows.find((row) => row.status === 'pending');
    expect(postponed).toMatchObject({ attempts: 0 });
    expect(postponed?.last_error).toMatch(/^postponed until .*: the account's request ceiling is spent$/);
    // Until the window's end (about a minute), not the next poll.
    expect((postponed?.next_attempt_at.getTime() ?? 0) - Date.now()).toBeGreaterThan(50_000);
    expect(receiver.received).toHaveLength(2);
    // The live keys' requests count in the same counter.
    const counter = accountCounterRedisKey(redis.prefix, { accountId: endpoint.accountId, mode: 'live' });
    expect(await redis.redis.get(counter)).toBe('2');
    await receiver.close();
  });
});
