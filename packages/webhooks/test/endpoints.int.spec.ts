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

/** Gives the account a live key (only such accounts' endpoints receive anything); returns the key's id. */
async function addLiveKey(accountId: string): Promise<string> {
  const id = randomUUID();
  await database.db
    .insertInto('api_keys')
    .values({ id, account_id: accountId, name: 'live', prefix: 'dk_live_spec', secret_hash: id })
    .execute();
  return id;
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

  it('disables, re-enables (clearing why), makes test events only when enabled and the account holds a live key, and deletes', async () => {
    const accountId = await newAccount();
    const created = await createEndpoint(
      database.db,
      { accountId, url: 'https://hooks.example.com/t', countries: ['pt'] },
      OPTIONS,
    );
    if (!created.ok) throw new Error(created.error);
    const { id } = created.value.endpoint;
    const deps = { db: database.db, options: OPTIONS };
    const testEvents = () =>
      database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', id).execute();

    // Without an active live key (none; then only a sandbox key; then a revoked live key) nothing is made.
    expect(await sendTestEvent(deps, accountId, id)).toBeNull();
    await database.db
      .insertInto('api_keys')
      .values({
        id: randomUUID(),
        account_id: accountId,
        name: 'sandbox',
        prefix: 'dk_test_spec',
        secret_hash: '!',
      })
      .execute();
    expect(await sendTestEvent(deps, accountId, id)).toBeNull();
    const revoked = await addLiveKey(accountId);
    await database.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('id', '=', revoked)
      .execute();
    expect(await sendTestEvent(deps, accountId, id)).toBeNull();
    expect(await testEvents()).toEqual([]);
    await addLiveKey(accountId);

    const delivery = await sendTestEvent(deps, accountId, id);
    expect(delivery).toMatchObject({
      endpointId: id,
      eventType: 'webhook.test',
      status: 'pending',
      attempts: 0,
    });
    expect(delivery?.id).toMatch(/^msg_/);
    expect(await testEvents()).toEqual([{ id: delivery?.id }]);
    expect(await listDeliveries(database.db, accountId, id, 10)).toEqual([delivery]);
    expect(await listDeliveries(database.db, await newAccount(), id, 10)).toEqual([]);

    await database.db
      .updateTable('webhook_endpoints')
      .set({ enabled: false, disabled_reason: 'failing since then: 500', failing_since: new Date() })
      .where('id', '=', id)
      .execute();
    expect(await sendTestEvent(deps, accountId, id)).toBeNull();
    expect(await testEvents()).toHaveLength(1);
    const enabled = await setEndpointEnabled(database.db, accountId, id, true);
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    expect((await setEndpointEnabled(database.db, accountId, id, false))?.enabled).toBe(false);

    expect(await deleteEndpoint(database.db, accountId, id)).toBe(true);
    expect(await findEndpoint(database.db, accountId, id)).toBeNull();
    expect(await listDeliveries(database.db, accountId, id, 10)).toEqual([]);
  });
});
