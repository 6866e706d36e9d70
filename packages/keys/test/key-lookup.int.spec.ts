import { once } from 'node:events';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@directory/domain';
import { createTestDatabase, createTestRedis, type TestDatabase } from '@directory/testing';
import {
  createApiKey,
  createKeyLookup,
  createKeyVouches,
  ensureAccount,
  revokeApiKey,
  rollApiKey,
} from '../src/index.js';
import { createDatabaseClock } from '../src/database-clock.js';
import { MAX_READ_SECONDS, barRedisKey, barredWrite, vouchRedisKey } from '../src/key-vouches.js';

const REFUSED = { kind: 'refused' };

describe('key lookup: working keys from memory while Redis vouches for them, unknown keys remembered', () => {
  let test: TestDatabase;
  const redis = createTestRedis('keys-lookup');
  const vouches = createKeyVouches(redis.redis, redis.prefix);
  let queries = 0;
  const counting: KyselyPlugin = {
    transformQuery: (args) => ((queries += 1), args.node),
    transformResult: (args) => Promise.resolve(args.result),
  };
  // A lookup as one request-serving process has it (its own memory), counting its database queries.
  const processLookup = (unknownKeyCacheSeconds = 60) =>
    createKeyLookup(test.db.withPlugin(counting), vouches, { unknownKeyCacheSeconds });
  const newKey = async (email: string) => {
    const account = await ensureAccount(test.db, email);
    return createApiKey(test.db, { accountId: account.id, name: email });
  };
  // What a bar's expiry (BAR_SECONDS) would do, without waiting ten minutes.
  const endBar = (keyId: string) => redis.redis.del(barRedisKey(redis.prefix, keyId));
  // The connection drops and comes back, as it does when Redis restarts or fails over (the shared
  // server itself is not touched).
  const reconnect = async () => {
    const closed = once(redis.redis, 'close');
    redis.redis.disconnect(true);
    await closed;
    await redis.redis.ping();
  };

  beforeAll(async () => {
    test = await createTestDatabase('keys-lookup');
  });
  afterAll(async () => {
    await test.drop();
    await redis.cleanup();
  });

  it('asks the database once for a repeated unknown key, never for a malformed one', async () => {
    const lookup = processLookup();
    const unknown = generateApiKey(new Uint8Array(32).fill(9)).secret;
    const before = queries;
    for (let attempt = 0; attempt < 10; attempt += 1) expect(await lookup(unknown)).toEqual(REFUSED);
    expect(await lookup('dk_live_not-a-key')).toEqual(REFUSED);
    expect(queries - before).toBe(1);
  });

  it('reads a working key once, then answers from memory; a revoke is effective on the next lookup of every process', async () => {
    const { key, secret } = await newKey('lookup@example.com');
    const first = processLookup();
    const second = processLookup();
    const before = queries;
    for (const lookup of [first, second, first, second, first])
      expect(await lookup(secret)).toMatchObject({ kind: 'active', key: { id: key.id } });
    // One read per process; every later answer came from memory, vouched for by Redis.
    expect(queries - before).toBe(2);
    await revokeApiKey(test.db, vouches, key.id);
    expect(await first(secret)).toEqual(REFUSED);
    expect(await second(secret)).toEqual(REFUSED);
  });

  it('never vouches for a row read before a revoke, even when the vouch comes after it', async () => {
    const { key } = await newKey('race@example.com');
    // A process read the row (still working) ...
    const ticket = await vouches.ticket();
    // ... the key is revoked before that process vouches for what it read ...
    await revokeApiKey(test.db, vouches, key.id);
    expect(await vouches.vouch(key.id, 'what it read', ticket)).toBe(false);
    // ... so no process may use that copy.
    expect(await vouches.isVouched(key.id, 'what it read')).toBe(false);
  });

  it('refuses a vouch whose ticket is older than a read can take', async () => {
    const { key } = await newKey('late@example.com');
    const ticket = await vouches.ticket();
    const late = { ...ticket, issuedAt: ticket.issuedAt - MAX_READ_SECONDS - 1 };
    expect(await vouches.vouch(key.id, 'read long ago', late)).toBe(false);
    expect(await vouches.isVouched(key.id, 'read long ago')).toBe(false);
    expect(await vouches.vouch(key.id, 'read just now', ticket)).toBe(true);
    expect(await vouches.isVouched(key.id, 'read just now')).toBe(true);
  });

  it('forgets a row vouched for while a slow write was under way, once the write is done', async () => {
    const { key, secret } = await newKey('slow-write@example.com');
    const lookup = processLookup();
    await barredWrite(vouches, key.id, async () => {
      // The write takes longer than the first bar lasts: a process reads the old row and vouches.
      await endBar(key.id);
      expect((await lookup(secret)).kind).toBe('active');
      expect((await lookup(secret)).kind).toBe('active');
      await test.db
        .updateTable('api_keys')
        .set({ revoked_at: new Date() })
        .where('id', '=', key.id)
        .execute();
    });
    expect(await lookup(secret)).toEqual(REFUSED);
  });

  it('never vouches across a reconnect, and reads every remembered row again after one', async () => {
    const { key, secret } = await newKey('restart@example.com');
    const lookup = processLookup();
    expect((await lookup(secret)).kind).toBe('active');
    // A row read before the connection dropped (Redis restarted, failed over) is not vouched for after it.
    const ticket = await vouches.ticket();
    await reconnect();
    expect(await vouches.vouch(key.id, 'read before the restart', ticket)).toBe(false);
    expect(await vouches.isVouched(key.id, 'read before the restart')).toBe(false);
    // The remembered row, though Redis still vouches for it, is read again once, then remembered anew.
    const before = queries;
    expect((await lookup(secret)).kind).toBe('active');
    expect((await lookup(secret)).kind).toBe('active');
    expect(queries - before).toBe(1);
  });

  it('refuses a revoked key whose vouch a restored Redis brought back', async () => {
    const { key, secret } = await newKey('restored@example.com');
    const lookup = processLookup();
    expect((await lookup(secret)).kind).toBe('active');
    const vouch = vouchRedisKey(redis.prefix, key.id);
    const vouched = await redis.redis.get(vouch);
    await revokeApiKey(test.db, vouches, key.id);
    // Redis comes back from a snapshot taken before the revoke: the vouch as it was, no bar.
    await redis.redis.set(vouch, vouched ?? '');
    await endBar(key.id);
    await reconnect();
    expect(await lookup(secret)).toEqual(REFUSED);
  });

  it('does not use a remembered copy of an older version of the row once another process vouched for a newer one', async () => {
    const { key, secret } = await newKey('versions@example.com');
    const first = processLookup();
    expect((await first(secret)).kind).toBe('active');
    await rollApiKey(test.db, vouches, key.id, { grace: '1h' });
    await endBar(key.id);
    const second = processLookup();
    expect((await second(secret)).kind).toBe('active');
    // `first` remembers the row from before the roll (no revocation scheduled): it must read it again.
    const before = queries;
    expect((await first(secret)).kind).toBe('active');
    expect(queries - before).toBe(1);
    // The grace period ends a second from now (as if the hour had passed), written as every write is.
    const end = new Date(Date.now() + 1_000);
    await vouches.bar(key.id);
    await test.db.updateTable('api_keys').set({ revoked_at: end }).where('id', '=', key.id).execute();
    await endBar(key.id);
    expect((await first(secret)).kind).toBe('active');
    expect((await second(secret)).kind).toBe('active');
    await sleepUntil(end);
    // From memory (no new write, so still vouched for), the state is computed at the lookup's instant.
    expect(await first(secret)).toEqual(REFUSED);
    expect(await second(secret)).toEqual(REFUSED);
  });

  it('with a memory of 0 seconds, asks the database every time for an unknown key', async () => {
    const lookup = processLookup(0);
    const unknown = generateApiKey(new Uint8Array(32).fill(11)).secret;
    const before = queries;
    for (let attempt = 0; attempt < 3; attempt += 1) expect(await lookup(unknown)).toEqual(REFUSED);
    expect(queries - before).toBe(3);
  });

  it('stops a working key at its expiry instant, not a cache lifetime later, and says it expired', async () => {
    const lookup = processLookup();
    const { key, secret } = await newKey('expiry@example.com');
    const expiresAt = new Date(Date.now() + 1_500);
    await test.db.updateTable('api_keys').set({ expires_at: expiresAt }).where('id', '=', key.id).execute();
    expect((await lookup(secret)).kind).toBe('active');
    await sleepUntil(expiresAt);
    const before = queries;
    // Declared expired from a fresh read of the row, then remembered as expired (not as unknown): the
    // answer stays the same without another query.
    expect(await lookup(secret)).toEqual({ kind: 'expired' });
    expect(await lookup(secret)).toEqual({ kind: 'expired' });
    expect(queries - before).toBe(1);
  });

  it("follows the database's clock: a host clock a minute behind still stops keys at their expiry by the database's", async () => {
    const skews: number[] = [];
    const clock = createDatabaseClock({
      hostNow: () => Date.now() - 60_000,
      onSkewed: (skew) => skews.push(skew),
    });
    const lookup = createKeyLookup(test.db, vouches, { unknownKeyCacheSeconds: 60, clock });
    const expireIn = async (keyId: string, ms: number) => {
      const { expires_at } = await test.db
        .updateTable('api_keys')
        .set({ expires_at: sql<Date>`now() + make_interval(secs => ${ms / 1000})` })
        .where('id', '=', keyId)
        .returning('expires_at')
        .executeTakeFirstOrThrow();
      return expires_at ?? new Date(0);
    };
    // Expired a second ago by the database's clock, read now: the lagging host would see a minute left.
    const expired = await newKey('clock-expired@example.com');
    await expireIn(expired.key.id, -1_000);
    expect(await lookup(expired.secret)).toEqual({ kind: 'expired' });
    // Working when read, then stopped at its expiry from memory, by the database's clock.
    const expiring = await newKey('clock-expiring@example.com');
    const expiresAt = await expireIn(expiring.key.id, 1_500);
    expect((await lookup(expiring.secret)).kind).toBe('active');
    await sleepUntil(expiresAt);
    expect(await lookup(expiring.secret)).toEqual({ kind: 'expired' });
    // The skew was measured (and reported once), to within the reads' round trips.
    expect(skews).toHaveLength(1);
    expect(Math.abs((clock.skewMs() ?? 0) - 60_000)).toBeLessThan(500);
  });

  it('does not declare a working key dead when the host clock jumps past its expiry: the row and the clock are read again', async () => {
    let jump = 0;
    const clock = createDatabaseClock({ hostNow: () => Date.now() + jump });
    const lookup = createKeyLookup(test.db, vouches, { unknownKeyCacheSeconds: 60, clock });
    const { key, secret } = await newKey('clock-jump@example.com');
    await test.db
      .updateTable('api_keys')
      .set({ expires_at: sql<Date>`now() + interval '30 minutes'` })
      .where('id', '=', key.id)
      .execute();
    expect((await lookup(secret)).kind).toBe('active');
    // The host's clock is stepped an hour ahead; the database's is not.
    jump = 3_600_000;
    expect((await lookup(secret)).kind).toBe('active');
    expect((await lookup(secret)).kind).toBe('active');
    expect(Math.abs((clock.skewMs() ?? 0) + 3_600_000)).toBeLessThan(500);
  });

  it("keeps a rolled key's old secret working until its grace period ends, exactly", async () => {
    const lookup = processLookup();
    const { key, secret } = await newKey('grace@example.com');
    const rolled = await rollApiKey(test.db, vouches, key.id, { grace: '1h' });
    expect(await lookup(secret)).toMatchObject({ kind: 'active', key: { id: key.id } });
    expect(await lookup(rolled?.secret ?? '')).toMatchObject({ kind: 'active', key: { id: rolled?.key.id } });
    // The grace period ends a second from now (as if the hour had passed).
    const end = new Date(Date.now() + 1_000);
    await vouches.bar(key.id);
    await test.db.updateTable('api_keys').set({ revoked_at: end }).where('id', '=', key.id).execute();
    expect((await lookup(secret)).kind).toBe('active');
    await sleepUntil(end);
    expect(await lookup(secret)).toEqual(REFUSED);
  });
});

/**
 * Past an instant by the lookup's clock: the database's time as measured, which is right to within half
 * a reading's round trip (database-clock.ts). On a busy host a round trip took tens of ms, so waking 5 ms
 * after the instant by the host's clock sometimes still came before it by the lookup's.
 */
const CLOCK_READING_MARGIN_MS = 250;

async function sleepUntil(instant: Date): Promise<void> {
  const wait = instant.getTime() - Date.now() + CLOCK_READING_MARGIN_MS;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
}
