import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '@directory/database';
import { hashApiKey, isWellFormedApiKey } from '@directory/domain';
import { Redis } from 'ioredis';
import { createTestDatabase, createTestRedis, freePort, type TestDatabase } from '@directory/testing';
import {
  ApiKeyLimitError,
  KeyNotRollableError,
  MAX_ACTIVE_KEYS_PER_ACCOUNT,
  checkKeyBySecret,
  createApiKey,
  findApiKey,
  findActiveKeyBySecret,
  listApiKeys,
  revokeApiKey,
  rollApiKey,
} from '../src/api-key.repository.js';
import { AccountNotFoundError, ensureAccount } from '../src/account.repository.js';
import { createKeyVouches } from '../src/key-vouches.js';

const DAY = 86_400_000;

describe('API key store on the local PostgreSQL', () => {
  let test: TestDatabase;
  const redis = createTestRedis('keys-repository');
  const vouches = createKeyVouches(redis.redis, redis.prefix);
  beforeAll(async () => {
    test = await createTestDatabase('keys-repository');
  });
  afterAll(async () => {
    await test.drop();
    await redis.cleanup();
  });

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
      mode: 'live',
      creationTime: key.creationTime,
    });
    const revoked = await revokeApiKey(test.db, vouches, key.id);
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    expect(await findActiveKeyBySecret(test.db, secret)).toBeNull();
    // Idempotent: the first revocation time is kept.
    expect((await revokeApiKey(test.db, vouches, key.id))?.revokedAt).toEqual(revoked?.revokedAt);
    expect(await revokeApiKey(test.db, vouches, 'no-such-key')).toBeNull();
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
    await revokeApiKey(test.db, vouches, created[0]?.key.id ?? '');
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
    expect(await revokeApiKey(test.db, vouches, key.id, { accountId: other.id })).toBeNull();
    expect((await findApiKey(test.db, key.id))?.revokedAt).toBeNull();

    const revoked = await revokeApiKey(test.db, vouches, key.id, { accountId: owner.id });
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

  it('lists keys with revocation state, per account or all', async () => {
    const account = await ensureAccount(test.db, 'list@example.com');
    const a = await createApiKey(test.db, { accountId: account.id, name: 'a' });
    await createApiKey(test.db, { accountId: account.id, name: 'b' });
    await revokeApiKey(test.db, vouches, a.key.id);
    const keys = await listApiKeys(test.db, account.id);
    expect(keys.map((key) => key.name).sort()).toEqual(['a', 'b']);
    expect(keys.find((key) => key.name === 'a')?.revokedAt).toBeInstanceOf(Date);
    expect((await listApiKeys(test.db)).length).toBeGreaterThan(keys.length);
  });

  it('creates a key with an expiry counted from its creation; an expired key is reported as expired', async () => {
    const account = await ensureAccount(test.db, 'expiry@example.com');
    const { key, secret } = await createApiKey(test.db, { accountId: account.id, name: 'e', expiry: '90' });
    expect((key.expiresAt?.getTime() ?? 0) - key.creationTime.getTime()).toBe(90 * DAY);
    expect((await checkKeyBySecret(test.db, secret)).kind).toBe('active');
    expect(await checkKeyBySecret(test.db, secret, new Date(key.creationTime.getTime() + 90 * DAY))).toEqual({
      kind: 'expired',
    });
    // A key revoked before it expired stays "revoked" (no hint that it ever had an expiry).
    await revokeApiKey(test.db, vouches, key.id);
    expect(await checkKeyBySecret(test.db, secret, new Date(Date.now() + 91 * DAY))).toEqual({
      kind: 'refused',
    });
  });

  it('does not count expired keys toward the five', async () => {
    const account = await ensureAccount(test.db, 'expired-slots@example.com');
    const created = [];
    for (let index = 0; index < MAX_ACTIVE_KEYS_PER_ACCOUNT; index += 1)
      created.push(await createApiKey(test.db, { accountId: account.id, name: `k${index}` }));
    await expect(createApiKey(test.db, { accountId: account.id, name: 'sixth' })).rejects.toBeInstanceOf(
      ApiKeyLimitError,
    );
    await test.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('id', '=', created[0]?.key.id ?? '')
      .execute();
    await expect(createApiKey(test.db, { accountId: account.id, name: 'sixth' })).resolves.toBeDefined();
  });

  it('rolls a key: same name and lifetime, the old secret works until the end of its grace period', async () => {
    const account = await ensureAccount(test.db, 'roll@example.com');
    const old = await createApiKey(test.db, { accountId: account.id, name: 'backend', expiry: '30' });
    const rolled = await rollApiKey(test.db, vouches, old.key.id, { grace: '24h' });
    if (rolled === null) throw new Error('expected a rolled key');
    expect(rolled.key).toMatchObject({ name: 'backend', rolledFrom: old.key.id, revokedAt: null });
    expect((rolled.key.expiresAt?.getTime() ?? 0) - rolled.key.creationTime.getTime()).toBe(30 * DAY);
    expect(rolled.previous.revokedAt?.getTime()).toBe(rolled.key.creationTime.getTime() + DAY);
    expect((await checkKeyBySecret(test.db, old.secret)).kind).toBe('active');
    expect((await checkKeyBySecret(test.db, rolled.secret)).kind).toBe('active');
    const graceEnd = rolled.previous.revokedAt ?? new Date();
    expect((await checkKeyBySecret(test.db, old.secret, new Date(graceEnd.getTime() - 1))).kind).toBe(
      'active',
    );
    expect((await checkKeyBySecret(test.db, old.secret, graceEnd)).kind).toBe('refused');
    // Only an active key rolls: the old one (retiring) and a revoked one do not.
    await expect(rollApiKey(test.db, vouches, old.key.id, { grace: 'none' })).rejects.toBeInstanceOf(
      KeyNotRollableError,
    );
    // Revoking a retiring key brings its revocation forward to now.
    await revokeApiKey(test.db, vouches, old.key.id);
    expect((await checkKeyBySecret(test.db, old.secret)).kind).toBe('refused');
  });

  it('rolls without grace even at the limit; with grace only with a free slot, both keys counting', async () => {
    const account = await ensureAccount(test.db, 'roll-limit@example.com');
    const keys = [];
    for (let index = 0; index < MAX_ACTIVE_KEYS_PER_ACCOUNT - 1; index += 1)
      keys.push(await createApiKey(test.db, { accountId: account.id, name: `k${index}` }));
    const first = keys[0]?.key.id ?? '';
    // Four keys: a graceful roll takes the fifth slot…
    const rolled = await rollApiKey(test.db, vouches, first, { grace: '1h' });
    await expect(createApiKey(test.db, { accountId: account.id, name: 'sixth' })).rejects.toBeInstanceOf(
      ApiKeyLimitError,
    );
    // …so another graceful roll is refused, while one without grace replaces the key at once.
    await expect(rollApiKey(test.db, vouches, keys[1]?.key.id ?? '', { grace: '1h' })).rejects.toBeInstanceOf(
      ApiKeyLimitError,
    );
    const immediate = await rollApiKey(test.db, vouches, keys[1]?.key.id ?? '', { grace: 'none' });
    expect((await checkKeyBySecret(test.db, keys[1]?.secret ?? '')).kind).toBe('refused');
    expect((await checkKeyBySecret(test.db, immediate?.secret ?? '')).kind).toBe('active');
    expect((await checkKeyBySecret(test.db, rolled?.secret ?? '')).kind).toBe('active');
    // Another account cannot roll this account's key.
    const other = await ensureAccount(test.db, 'roll-other@example.com');
    expect(
      await rollApiKey(test.db, vouches, keys[2]?.key.id ?? '', { grace: 'none', accountId: other.id }),
    ).toBeNull();
  });
  it('makes no revoke or roll when Redis cannot bar the key first (the guarantee is never dropped silently)', async () => {
    const account = await ensureAccount(test.db, 'no-redis@example.com');
    const { key } = await createApiKey(test.db, { accountId: account.id, name: 'kept' });
    const unreachable = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    unreachable.on('error', () => undefined);
    try {
      const barless = createKeyVouches(unreachable, 'unreachable');
      await expect(revokeApiKey(test.db, barless, key.id)).rejects.toThrow();
      await expect(rollApiKey(test.db, barless, key.id, { grace: 'none' })).rejects.toThrow();
    } finally {
      unreachable.disconnect();
    }
    const after = await findApiKey(test.db, key.id);
    expect(after?.revokedAt).toBeNull();
    expect((await listApiKeys(test.db, account.id)).length).toBe(1);
  });
});
