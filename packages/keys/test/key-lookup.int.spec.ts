import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@directory/domain';
import { createTestDatabase, type TestDatabase } from '@directory/testing';
import { createApiKey, createKeyLookup, ensureAccount, revokeApiKey, rollApiKey } from '../src/index.js';

const REFUSED = { kind: 'refused' };

describe('key lookup with a memory of unknown keys', () => {
  let test: TestDatabase;
  let queries = 0;
  const counting: KyselyPlugin = {
    transformQuery: (args) => ((queries += 1), args.node),
    transformResult: (args) => Promise.resolve(args.result),
  };

  beforeAll(async () => {
    test = await createTestDatabase('keys-lookup');
  });
  afterAll(() => test.drop());

  it('asks the database once for a repeated unknown key, never for a malformed one', async () => {
    const lookup = createKeyLookup(test.db.withPlugin(counting), { unknownKeyCacheSeconds: 60 });
    const unknown = generateApiKey(new Uint8Array(32).fill(9)).secret;
    const before = queries;
    for (let attempt = 0; attempt < 10; attempt += 1) expect(await lookup(unknown)).toEqual(REFUSED);
    expect(await lookup('dk_live_not-a-key')).toEqual(REFUSED);
    expect(queries - before).toBe(1);
  });

  it('looks an active key up every time, so a revocation takes effect on the next lookup', async () => {
    const lookup = createKeyLookup(test.db.withPlugin(counting), { unknownKeyCacheSeconds: 60 });
    const account = await ensureAccount(test.db, 'lookup@example.com');
    const { key, secret } = await createApiKey(test.db, { accountId: account.id, name: 'lookup' });
    const before = queries;
    expect(await lookup(secret)).toMatchObject({ kind: 'active', key: { id: key.id } });
    expect(await lookup(secret)).toMatchObject({ kind: 'active', key: { id: key.id } });
    expect(queries - before).toBe(2);
    await revokeApiKey(test.db, key.id);
    expect(await lookup(secret)).toEqual(REFUSED);
  });

  it('with a memory of 0 seconds, asks the database every time', async () => {
    const lookup = createKeyLookup(test.db.withPlugin(counting), { unknownKeyCacheSeconds: 0 });
    const unknown = generateApiKey(new Uint8Array(32).fill(11)).secret;
    const before = queries;
    for (let attempt = 0; attempt < 3; attempt += 1) expect(await lookup(unknown)).toEqual(REFUSED);
    expect(queries - before).toBe(3);
  });

  it('stops a working key at its expiry instant, not a cache lifetime later, and says it expired', async () => {
    const lookup = createKeyLookup(test.db, { unknownKeyCacheSeconds: 60 });
    const account = await ensureAccount(test.db, 'expiry@example.com');
    const { key, secret } = await createApiKey(test.db, { accountId: account.id, name: 'expiring' });
    const expiresAt = new Date(Date.now() + 1_500);
    await test.db.updateTable('api_keys').set({ expires_at: expiresAt }).where('id', '=', key.id).execute();
    expect((await lookup(secret)).kind).toBe('active');
    await sleepUntil(expiresAt);
    expect(await lookup(secret)).toEqual({ kind: 'expired' });
    // Remembered as expired (not as unknown): the answer stays the same without a query.
    expect(await lookup(secret)).toEqual({ kind: 'expired' });
  });

  it("keeps a rolled key's old secret working until its grace period ends, exactly", async () => {
    const lookup = createKeyLookup(test.db, { unknownKeyCacheSeconds: 60 });
    const account = await ensureAccount(test.db, 'grace@example.com');
    const { key, secret } = await createApiKey(test.db, { accountId: account.id, name: 'rolling' });
    const rolled = await rollApiKey(test.db, key.id, { grace: '1h' });
    expect(await lookup(secret)).toMatchObject({ kind: 'active', key: { id: key.id } });
    expect(await lookup(rolled?.secret ?? '')).toMatchObject({ kind: 'active', key: { id: rolled?.key.id } });
    // The grace period ends a second from now (as if the hour had passed).
    const end = new Date(Date.now() + 1_000);
    await test.db.updateTable('api_keys').set({ revoked_at: end }).where('id', '=', key.id).execute();
    expect((await lookup(secret)).kind).toBe('active');
    await sleepUntil(end);
    expect(await lookup(secret)).toEqual(REFUSED);
  });
});

async function sleepUntil(instant: Date): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, instant.getTime() - Date.now() + 5)));
}
