import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageDay } from '@directory/domain';
import { createApiKey, ensureAccount, findApiKey, usageOfKeys } from '@directory/keys';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@directory/testing';
import { createUsageRecorder, usageRedisKeys } from '../src/index.js';

describe('key usage recorder (real Redis and PostgreSQL)', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  beforeAll(async () => {
    database = await createTestDatabase('usage-recorder');
    redis = createTestRedis('usage-recorder');
  });
  afterAll(async () => {
    await redis.cleanup();
    await database.drop();
  });

  it('adds the counts of several processes once, per day, with 429s apart and the latest use', async () => {
    const account = await ensureAccount(database.db, 'recorder@example.com');
    const { key } = await createApiKey(database.db, { accountId: account.id, name: 'busy' });
    // Two "processes" sharing Redis; a long interval, so only the first flush may drain to PostgreSQL.
    const options = { db: database.db, redis: redis.redis, prefix: redis.prefix, flushIntervalMs: 60_000 };
    const [first, second] = [createUsageRecorder(options), createUsageRecorder(options)];
    const yesterday = Date.parse('2025-01-01T23:59:59.000Z');
    const today = Date.now();
    for (let index = 0; index < 5; index += 1) first.record(key.id, today, false);
    first.record(key.id, yesterday, true);
    second.record(key.id, today - 1_000, true);
    second.record(key.id, today - 1_000, false);

    // The second process's counts reach Redis; the drain flag is set by nobody yet, so it drains them.
    await second.flush();
    expect(await usageOfKeys(database.db, [key.id], '2025-01-01')).toEqual([
      { keyId: key.id, day: usageDay(today), requests: 2, limited: 1 },
    ]);
    // The first process's counts wait in Redis: a drain ran less than an interval ago.
    await first.flush();
    expect(await redis.redis.hlen(usageRedisKeys(redis.prefix).pending)).toBeGreaterThan(0);
    expect((await usageOfKeys(database.db, [key.id], '2025-01-01')).at(-1)?.requests).toBe(2);

    // Once the interval has passed (the flag expired), the next flush of any process adds them.
    await redis.redis.del(usageRedisKeys(redis.prefix).due);
    await second.flush();
    expect(await usageOfKeys(database.db, [key.id], '2025-01-01')).toEqual([
      { keyId: key.id, day: '2025-01-01', requests: 1, limited: 1 },
      { keyId: key.id, day: usageDay(today), requests: 7, limited: 1 },
    ]);
    expect((await findApiKey(database.db, key.id))?.lastUsedAt?.getTime()).toBe(today);
    expect(await redis.redis.exists(usageRedisKeys(redis.prefix).pending)).toBe(0);
    expect(await redis.redis.scard(usageRedisKeys(redis.prefix).batches)).toBe(0);
  });

  it('a batch left behind by a crash is added by the next flush, exactly once', async () => {
    const account = await ensureAccount(database.db, 'crash@example.com');
    const { key } = await createApiKey(database.db, { accountId: account.id, name: 'crash' });
    const keys = usageRedisKeys(redis.prefix);
    // As a process leaves it when it dies after taking a batch (and maybe after committing it).
    const batch = keys.batch('orphan');
    await redis.redis.hset(batch, `r|${key.id}|2025-02-01`, '4', `u|${key.id}`, '1738400000000');
    await redis.redis.sadd(keys.batches, batch);
    const recorder = createUsageRecorder({
      db: database.db,
      redis: redis.redis,
      prefix: redis.prefix,
      flushIntervalMs: 60_000,
    });
    await recorder.flush();
    // Committed, but "crashed" again before leaving Redis: the retry must not count it twice.
    await redis.redis.hset(batch, `r|${key.id}|2025-02-01`, '4');
    await redis.redis.sadd(keys.batches, batch);
    await recorder.flush();
    expect(await usageOfKeys(database.db, [key.id], '2025-02-01')).toEqual([
      { keyId: key.id, day: '2025-02-01', requests: 4, limited: 0 },
    ]);
    expect((await findApiKey(database.db, key.id))?.lastUsedAt?.getTime()).toBe(1738400000000);
    expect(await redis.redis.scard(keys.batches)).toBe(0);
  });
});
