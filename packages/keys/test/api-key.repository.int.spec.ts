import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '@directory/database';
import { hashApiKey, isWellFormedApiKey } from '@directory/domain';
import { createTestDatabase, type TestDatabase } from '@directory/testing';
import {
  ApiKeyLimitError,
  AccountNotFoundError,
  MAX_ACTIVE_KEYS_PER_ACCOUNT,
  createApiKey,
  ensureAccount,
  findApiKey,
  findActiveKeyBySecret,
  listApiKeys,
  revokeApiKey,
} from '../src/index.js';

describe('API key store on the local PostgreSQL', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('keys-repository');
  });
  afterAll(() => test.drop());

  it('creates a key: the secret is well-formed, only its SHA-256 is stored, the prefix leads the secret', async () => {
    const account = await ensureAccount(test.db, 'create@example.com');
    const { key, secret } = await createApiKey(test.db, { accountId: account.id, name: ' production ' });
    expect(isWellFormedApiKey(secret)).toBe(true);
    expect(key.name).toBe('production');
    expect(secret.startsWith(key.prefix)).toBe(true);
    expect(key.revokedAt).toBeNull();
    const row = await test.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashApiKey(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it('finds an active key by secret; revoked keys and unknown secrets give null', async () => {
    const account = await ensureAccount(test.db, 'find@example.com');
    const { key, secret } = await createApiKey(test.db, { accountId: account.id, name: 'find' });
    expect(await findActiveKeyBySecret(test.db, secret)).toEqual({
      id: key.id,
      accountId: account.id,
      name: 'find',
      prefix: key.prefix,
      creationTime: key.creationTime,
    });
    const revoked = await revokeApiKey(test.db, key.id);
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    expect(await findActiveKeyBySecret(test.db, secret)).toBeNull();
    // Idempotent: the first revocation time is kept.
    expect((await revokeApiKey(test.db, key.id))?.revokedAt).toEqual(revoked?.revokedAt);
    expect(await revokeApiKey(test.db, 'no-such-key')).toBeNull();
  });

  it('refuses malformed secrets before touching the database', async () => {
    const dead = createDatabase('postgres://postgres@127.0.0.1:9/none', { maxConnections: 1 });
    try {
      for (const secret of ['', 'dk_live_', 'not a key', `dk_live_${'0'.repeat(49)}`]) {
        expect(await findActiveKeyBySecret(dead, secret)).toBeNull();
      }
    } finally {
      await dead.destroy();
    }
  });

  it(`allows at most ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys; revoking frees a slot`, async () => {
    const account = await ensureAccount(test.db, 'five@example.com');
    const created = [];
    for (let index = 0; index < MAX_ACTIVE_KEYS_PER_ACCOUNT; index += 1) {
      created.push(await createApiKey(test.db, { accountId: account.id, name: `k${index}` }));
    }
    await expect(createApiKey(test.db, { accountId: account.id, name: 'sixth' })).rejects.toThrow(
      ApiKeyLimitError,
    );
    await expect(createApiKey(test.db, { accountId: account.id, name: 'sixth' })).rejects.toThrow(
      /at most|maximum/,
    );
    await revokeApiKey(test.db, created[0]?.key.id ?? '');
    await expect(createApiKey(test.db, { accountId: account.id, name: 'sixth' })).resolves.toBeDefined();
  });

  it('cannot exceed five active keys under concurrent creates', async () => {
    const account = await ensureAccount(test.db, 'race@example.com');
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        createApiKey(test.db, { accountId: account.id, name: `r${index}` }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(
      MAX_ACTIVE_KEYS_PER_ACCOUNT,
    );
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(ApiKeyLimitError);
    }
    const active = (await listApiKeys(test.db, account.id)).filter((key) => key.revokedAt === null);
    expect(active).toHaveLength(MAX_ACTIVE_KEYS_PER_ACCOUNT);
  });

  it("finds and revokes a key within an account scope only: another account's key is unknown to it", async () => {
    const owner = await ensureAccount(test.db, 'owner@example.com');
    const other = await ensureAccount(test.db, 'other@example.com');
    const { key } = await createApiKey(test.db, { accountId: owner.id, name: 'scoped' });

    expect(await findApiKey(test.db, key.id, { accountId: other.id })).toBeNull();
    expect(await revokeApiKey(test.db, key.id, { accountId: other.id })).toBeNull();
    expect((await findApiKey(test.db, key.id))?.revokedAt).toBeNull();

    const revoked = await revokeApiKey(test.db, key.id, { accountId: owner.id });
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    expect((await findApiKey(test.db, key.id, { accountId: owner.id }))?.revokedAt).toEqual(
      revoked?.revokedAt,
    );
  });

  it('refuses keys for a missing account', async () => {
    await expect(createApiKey(test.db, { accountId: 'missing', name: 'x' })).rejects.toThrow(
      AccountNotFoundError,
    );
  });

  it('ensureAccount is idempotent and case-insensitive, and the account cannot sign in', async () => {
    const [first, second] = await Promise.all([
      ensureAccount(test.db, 'Ops@Example.com'),
      ensureAccount(test.db, 'ops@example.com'),
    ]);
    expect(first.id).toBe(second.id);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    const row = await test.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBe('!');
  });

  it('lists keys with revocation state, per account or all', async () => {
    const account = await ensureAccount(test.db, 'list@example.com');
    const a = await createApiKey(test.db, { accountId: account.id, name: 'a' });
    await createApiKey(test.db, { accountId: account.id, name: 'b' });
    await revokeApiKey(test.db, a.key.id);
    const keys = await listApiKeys(test.db, account.id);
    expect(keys.map((key) => key.name).sort()).toEqual(['a', 'b']);
    expect(keys.find((key) => key.name === 'a')?.revokedAt).toBeInstanceOf(Date);
    expect((await listApiKeys(test.db)).length).toBeGreaterThan(keys.length);
  });
});
