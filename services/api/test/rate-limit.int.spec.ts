import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseList } from 'structured-headers';
import { rateLimitRedisKey } from '@directory/keyed-access';
import { createApiHarness, createCaller, type ApiHarness } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

/** The one item of a `RateLimit` field, parsed as an RFC 8941 List. */
function parseRateLimit(field: unknown): { name: unknown; r: unknown; t: unknown } {
  const list = parseList(String(field));
  expect(list).toHaveLength(1);
  const [name, parameters] = list[0] ?? [];
  return { name, r: parameters?.get('r'), t: parameters?.get('t') };
}

describe('per-key rate limit', () => {
  let harness: ApiHarness;
  let accounts = 0;
  const newKey = () => harness.createKey(`limits-${(accounts += 1)}@example.com`);

  beforeAll(async () => {
    harness = await createApiHarness('api-rate-limit');
  });
  afterAll(() => harness.close());

  it('puts RateLimit-Limit, -Remaining, -Reset, -Policy and RateLimit on successful responses', async () => {
    const call = await createCaller(await harness.newApp({ rateLimit: { max: 5, windowSeconds: 30 } }));
    const { secret } = await newKey();
    const remaining: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await call({ url: '/api/v1/key', headers: { 'x-api-key': secret } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBe('5');
      expect(response.headers['ratelimit-policy']).toBe('"key";q=5;w=30');
      const reset = Number(response.headers['ratelimit-reset']);
      expect(Number.isInteger(reset) && reset >= 1 && reset <= 30).toBe(true);
      remaining.push(Number(response.headers['ratelimit-remaining']));
      // The draft's structured form says what the older headers say.
      expect(parseRateLimit(response.headers.ratelimit)).toEqual({
        name: 'key',
        r: Number(response.headers['ratelimit-remaining']),
        t: reset,
      });
    }
    expect(remaining).toEqual([4, 3, 2]);
    const search = await call({ url: '/api/v1/doctors?country=fr', headers: { 'x-api-key': secret } });
    expect(search.headers['ratelimit-remaining']).toBe('1'); // one quota across all routes
  });

  it('answers request N+1 with 429, Retry-After no earlier than the window end, and a problem body', async () => {
    const call = await createCaller(await harness.newApp({ rateLimit: { max: 3, windowSeconds: 20 } }));
    const { id, secret } = await newKey();
    for (let index = 0; index < 3; index += 1) {
      expect((await call({ url: '/api/v1/key', headers: { 'x-api-key': secret } })).statusCode).toBe(200);
    }
    const limited = await call({ url: '/api/v1/key', headers: { 'x-api-key': secret } });
    const problem = expectProblem(limited, 429);
    expect(problem.type).toBe('/problems/rate-limited');
    const retryAfter = String(limited.headers['retry-after']);
    expect(retryAfter).toMatch(/^\d+$/);
    const windowLeftMs = await harness.redis.redis.pttl(rateLimitRedisKey(harness.redis.prefix, id));
    expect(windowLeftMs).toBeGreaterThan(0);
    expect(Number(retryAfter) * 1000).toBeGreaterThanOrEqual(windowLeftMs);
    expect(Number(retryAfter)).toBeLessThanOrEqual(20);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.headers['ratelimit-policy']).toBe('"key";q=3;w=20');
    expect(parseRateLimit(limited.headers.ratelimit)).toEqual({
      name: 'key',
      r: 0,
      t: Number(limited.headers['ratelimit-reset']),
    });
    // Other keys have their own quota.
    const other = await newKey();
    expect((await call({ url: '/api/v1/key', headers: { 'x-api-key': other.secret } })).statusCode).toBe(200);
  });

  it("says in RateLimit what a 304's give-back left, as RateLimit-Remaining does", async () => {
    const call = await createCaller(await harness.newApp({ rateLimit: { max: 3, windowSeconds: 30 } }));
    const { secret } = await newKey();
    const first = await call({ url: '/api/v1/key', headers: { 'x-api-key': secret } });
    const etag = String(first.headers.etag);
    const notModified = await call({
      url: '/api/v1/key',
      headers: { 'x-api-key': secret, 'if-none-match': etag },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers['ratelimit-remaining']).toBe('2');
    expect(parseRateLimit(notModified.headers.ratelimit)).toMatchObject({ name: 'key', r: 2 });
    expect(notModified.headers['ratelimit-policy']).toBe('"key";q=3;w=30');
  });

  it('shares one quota between two app instances (two processes)', async () => {
    const first = await createCaller(await harness.newApp({ rateLimit: { max: 4, windowSeconds: 30 } }));
    const second = await createCaller(await harness.newApp({ rateLimit: { max: 4, windowSeconds: 30 } }));
    const { secret } = await newKey();
    const headers = { 'x-api-key': secret };
    const statuses = [];
    for (const call of [first, second, first, second, first, second]) {
      statuses.push((await call({ url: '/api/v1/key', headers })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('counts concurrent requests exactly (atomic in Redis)', async () => {
    const app = await harness.newApp({ rateLimit: { max: 10, windowSeconds: 30 } });
    const { secret } = await newKey();
    const responses = await Promise.all(
      Array.from({ length: 25 }, () => app.inject({ url: '/api/v1/key', headers: { 'x-api-key': secret } })),
    );
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(10);
    expect(responses.filter((response) => response.statusCode === 429)).toHaveLength(15);
  });

  it('does not spend quota on failed authentication', async () => {
    const call = await createCaller(await harness.newApp({ rateLimit: { max: 2, windowSeconds: 30 } }));
    const { id, secret } = await newKey();
    const revoked = await newKey();
    await harness.revokeKey(revoked.id);
    for (let index = 0; index < 5; index += 1) {
      expectProblem(await call({ url: '/api/v1/key', headers: { 'x-api-key': revoked.secret } }), 401);
      expectProblem(await call({ url: '/api/v1/key', headers: { 'x-api-key': `${secret}x` } }), 401);
      expectProblem(await call({ url: '/api/v1/key' }), 401);
    }
    expect(await harness.redis.redis.exists(rateLimitRedisKey(harness.redis.prefix, revoked.id))).toBe(0);
    const first = await call({ url: '/api/v1/key', headers: { 'x-api-key': secret } });
    expect(first.headers['ratelimit-remaining']).toBe('1');
    expect(await harness.redis.redis.get(rateLimitRedisKey(harness.redis.prefix, id))).toBe('1');
  });

  it('opens a new window once the old one has passed', async () => {
    const call = await createCaller(await harness.newApp({ rateLimit: { max: 1, windowSeconds: 1 } }));
    const { secret } = await newKey();
    const headers = { 'x-api-key': secret };
    expect((await call({ url: '/api/v1/key', headers })).statusCode).toBe(200);
    const limited = await call({ url: '/api/v1/key', headers });
    expectProblem(limited, 429);
    await new Promise((resolve) => setTimeout(resolve, Number(limited.headers['retry-after']) * 1000 + 50));
    expect((await call({ url: '/api/v1/key', headers })).statusCode).toBe(200);
  });
});
