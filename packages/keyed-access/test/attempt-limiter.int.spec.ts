import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRedis, type TestRedis } from '@directory/testing';
import { createAttemptLimiter } from '../src/index.js';

describe('attempt limiter (Redis)', () => {
  let redis: TestRedis;

  beforeAll(() => {
    redis = createTestRedis('attempt-limiter');
  });
  afterAll(() => redis.cleanup());

  const limiter = (name: string, max: number, blockInMemory = false, connection: Redis = redis.redis) =>
    createAttemptLimiter({
      redis: connection,
      prefix: redis.prefix,
      name,
      max,
      windowSeconds: 30,
      blockInMemory,
    });

  it('admits exactly max of many parallel attempts (counted atomically before any work)', async () => {
    const attempts = limiter('parallel', 7);
    const decisions = await Promise.all(Array.from({ length: 60 }, () => attempts.consume('subject')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(7);
    for (const decision of decisions.filter((candidate) => !candidate.allowed)) {
      expect(decision.allowed ? 0 : decision.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(decision.allowed ? 31 : decision.retryAfterSeconds).toBeLessThanOrEqual(30);
    }
    // Another subject has its own budget; processes share the count (a second limiter, same Redis).
    expect((await limiter('parallel', 7).consume('other')).allowed).toBe(true);
    expect((await limiter('parallel', 7).consume('subject')).allowed).toBe(false);
  });

  it('gives a point back on refund', async () => {
    const attempts = limiter('refund', 2);
    expect((await attempts.consume('s')).allowed).toBe(true);
    expect((await attempts.consume('s')).allowed).toBe(true);
    await attempts.refund('s');
    expect((await attempts.consume('s')).allowed).toBe(true);
    expect((await attempts.consume('s')).allowed).toBe(false);
  });

  it('with blockInMemory, answers a known block without Redis', async () => {
    const connection = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    connection.on('error', () => undefined);
    const attempts = limiter('memory', 1, true, connection);
    expect(attempts.knownBlockFor('s')).toBeNull();
    expect((await attempts.consume('s')).allowed).toBe(true);
    expect((await attempts.consume('s')).allowed).toBe(false);
    expect(attempts.knownBlockFor('s')).toBeGreaterThanOrEqual(1);

    connection.disconnect(); // from here on, any Redis command would fail
    expect((await attempts.consume('s')).allowed).toBe(false);
    await expect(attempts.consume('not-blocked')).rejects.toThrow();
  });
});
