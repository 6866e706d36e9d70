import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@directory/testing';
import {
  WEBHOOK_ENDPOINTS_PER_ACCOUNT,
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  sendTestEvent,
  setEndpointEnabled,
  type WebhookOptions,
  type WebhookQueue,
} from '../src/index.js';
import { openSecret } from '../src/secret-box.js';

const OPTIONS: WebhookOptions = {
  secretKey: 'webhooks-endpoints-spec-secret-key-0123456789',
  allowLoopback: false,
  // Names this spec uses resolve to public documentation-free addresses without a DNS server.
  resolve: (host) =>
    Promise.resolve(
      host === 'hooks.example.com' ? ['93.184.216.34'] : host === 'inside.example.com' ? ['10.0.0.1'] : [],
    ),
};

let database: TestDatabase;

async function newAccount(): Promise<string> {
  const id = randomUUID();
  await database.db
    .insertInto('accounts')
    .values({ id, email: `${id}@example.com`, password_hash: '!' })
    .execute();
  return id;
}

/** A queue that records what was enqueued (the delivery itself is the worker's, see webhooks.int.spec). */
function recordingQueue(): WebhookQueue & { queued: string[] } {
  const queued: string[] = [];
  return {
    queued,
    enqueue: (ids) => Promise.resolve(void queued.push(...ids)),
    close: () => Promise.resolve(),
  };
}

beforeAll(async () => {
  database = await createTestDatabase('webhook-endpoints');
});

afterAll(async () => {
  await database.drop();
});

describe('webhook endpoints', () => {
  it('stores an endpoint with its secret encrypted and shows the secret once', async () => {
    const accountId = await newAccount();
    const created = await createEndpoint(
      database.db,
      { accountId, url: 'https://hooks.example.com/directory', countries: ['it', 'de', 'de'] },
      OPTIONS,
    );
    if (!created.ok) throw new Error(created.error);
    const { endpoint, secret } = created.value;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({
      accountId,
      countries: ['de', 'it'],
      enabled: true,
      disabledReason: null,
    });
    const stored = await database.db
      .selectFrom('webhook_endpoints')
      .select('secret_ciphertext')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_ciphertext.toString('latin1')).not.toContain(secret.slice(6));
    expect(openSecret(stored.secret_ciphertext, OPTIONS.secretKey)).toBe(secret);
    expect(await listEndpoints(database.db, accountId)).toEqual([endpoint]);
    expect(await findEndpoint(database.db, accountId, endpoint.id)).toEqual(endpoint);
    // Another account sees nothing of it.
    const other = await newAccount();
    expect(await findEndpoint(database.db, other, endpoint.id)).toBeNull();
    expect(await setEndpointEnabled(database.db, other, endpoint.id, false)).toBeNull();
    expect(await deleteEndpoint(database.db, other, endpoint.id)).toBe(false);
    expect(await findEndpoint(database.db, accountId, 'not-a-uuid')).toBeNull();
  });

  it('refuses bad URLs, private hosts, no countries and a sixth endpoint', async () => {
    const accountId = await newAccount();
    const attempt = (url: string, countries: Parameters<typeof createEndpoint>[1]['countries'] = ['de']) =>
      createEndpoint(database.db, { accountId, url, countries }, OPTIONS);
    expect(await attempt('http://hooks.example.com/')).toEqual({
      ok: false,
      error: 'the URL must use https',
    });
    expect((await attempt('https://inside.example.com/')).ok).toBe(false);
    expect((await attempt('https://nowhere.example.com/')).ok).toBe(false);
    expect((await attempt('https://user:pw@hooks.example.com/')).ok).toBe(false);
    expect((await attempt('https://hooks.example.com/', [])).ok).toBe(false);
    for (let index = 0; index < WEBHOOK_ENDPOINTS_PER_ACCOUNT; index++) {
      expect((await attempt(`https://hooks.example.com/${index}`)).ok).toBe(true);
    }
    expect(await attempt('https://hooks.example.com/6')).toEqual({
      ok: false,
      error: `an account can have at most ${WEBHOOK_ENDPOINTS_PER_ACCOUNT} webhook endpoints`,
    });
    expect(await listEndpoints(database.db, accountId)).toHaveLength(WEBHOOK_ENDPOINTS_PER_ACCOUNT);
  });

  it('holds the per-account limit under concurrent registrations', async () => {
    const accountId = await newAccount();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        createEndpoint(
          database.db,
          { accountId, url: `https://hooks.example.com/${index}`, countries: ['es'] },
          OPTIONS,
        ),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(WEBHOOK_ENDPOINTS_PER_ACCOUNT);
    expect(await listEndpoints(database.db, accountId)).toHaveLength(WEBHOOK_ENDPOINTS_PER_ACCOUNT);
  });

  it('disables, re-enables (clearing why), queues test events only when enabled, and deletes', async () => {
    const accountId = await newAccount();
    const created = await createEndpoint(
      database.db,
      { accountId, url: 'https://hooks.example.com/t', countries: ['pt'] },
      OPTIONS,
    );
    if (!created.ok) throw new Error(created.error);
    const { id } = created.value.endpoint;
    const queue = recordingQueue();
    const deps = { db: database.db, queue, options: OPTIONS };

    const delivery = await sendTestEvent(deps, accountId, id);
    expect(delivery).toMatchObject({
      endpointId: id,
      eventType: 'webhook.test',
      status: 'pending',
      attempts: 0,
    });
    expect(delivery?.id).toMatch(/^msg_/);
    expect(queue.queued).toEqual([delivery?.id]);
    expect(await listDeliveries(database.db, accountId, id, 10)).toEqual([delivery]);
    expect(await listDeliveries(database.db, await newAccount(), id, 10)).toEqual([]);

    await database.db
      .updateTable('webhook_endpoints')
      .set({ enabled: false, disabled_reason: 'failing since then: 500', failing_since: new Date() })
      .where('id', '=', id)
      .execute();
    expect(await sendTestEvent(deps, accountId, id)).toBeNull();
    expect(queue.queued).toHaveLength(1);
    const enabled = await setEndpointEnabled(database.db, accountId, id, true);
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    expect((await setEndpointEnabled(database.db, accountId, id, false))?.enabled).toBe(false);

    expect(await deleteEndpoint(database.db, accountId, id)).toBe(true);
    expect(await findEndpoint(database.db, accountId, id)).toBeNull();
    expect(await listDeliveries(database.db, accountId, id, 10)).toEqual([]);
  });
});
