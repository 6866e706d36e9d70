import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UNVOUCHED, vouchRedisKey, type ActiveApiKey } from '@directory/keys';
import { ProblemError, installErrorHandling } from '@directory/http-server';
import { createTestRedis, type TestRedis } from '@directory/testing';
import {
  accountCounterRedisKey,
  createServiceRedis,
  keyedAccessProblemMappings,
  rateLimitRedisKey,
} from '../src/index.js';
import { registerRequestQuotas, type RequestQuotas } from '../src/request-quotas.js';

/**
 * The admission step and the give-back, on their own: routes answer 304 themselves (in the API the
 * caching hook does), so the edges can be timed exactly. The API's and MCP's specs cover the whole path.
 */
describe('request quotas: one admission per request, 304s and early refusals given back (Redis)', () => {
  let redis: TestRedis;
  const apps: FastifyInstance[] = [];
  const connections: Redis[] = [];
  let keys = 0;

  beforeAll(() => {
    redis = createTestRedis('request-quotas');
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    for (const connection of connections.splice(0)) connection.disconnect();
  });
  afterAll(() => redis.cleanup());

  const newKey = (): ActiveApiKey => {
    keys += 1;
    return {
      id: `key-${keys}`,
      accountId: `account-${keys}`,
      name: 'test',
      prefix: 'dk_live_0Xb4',
      mode: 'live',
      creationTime: new Date(0),
    };
  };
  const counter = (key: ActiveApiKey) => rateLimitRedisKey(redis.prefix, key.id);
  const accountCounter = (key: ActiveApiKey) => accountCounterRedisKey(redis.prefix, key);

  /**
   * An app whose requests are all `key`'s (its row just read: no vouch to confirm), with `/ok` (200),
   * `/not-modified` (304), `/slow-304` (304 after `slowMs`), `/refused-early` (400 before the handler).
   */
  async function limitedApp(max: number, windowSeconds: number, slowMs = 0, accountMax = 1_000) {
    const key = newKey();
    const connection = createServiceRedis(redis.url, { autoPipelining: true });
    connection.on('error', () => undefined);
    connections.push(connection);
    const app = Fastify({ logger: false });
    installErrorHandling(app, { notFoundDetail: 'no such route', mappings: keyedAccessProblemMappings });
    let quotas!: RequestQuotas;
    await app.register((scope, _options, done) => {
      quotas = registerRequestQuotas(scope, {
        redis: connection,
        prefix: redis.prefix,
        keyMax: max,
        accountMax,
        windowSeconds,
      });
      scope.addHook('onRequest', async (request, reply) => {
        const admission = await quotas.admit(key, null);
        if (admission === UNVOUCHED) throw new Error('no vouch to confirm, yet unvouched');
        quotas.apply(request, reply, key, admission);
      });
      scope.get('/ok', () => ({ ok: true }));
      scope.get('/not-modified', (_request, reply) => reply.code(304).send());
      scope.get('/slow-304', async (_request, reply) => {
        await sleep(slowMs);
        return reply.code(304).send();
      });
      scope.get('/304-after-redis-loss', async (_request, reply) => {
        connection.disconnect();
        return reply.code(304).send();
      });
      scope.get(
        '/refused-early',
        {
          preValidation: (_request, _reply, done) =>
            done(new ProblemError('invalidParameter', 'refused before the handler')),
        },
        () => ({ ok: true }),
      );
      done();
    });
    await app.ready();
    apps.push(app);
    const count = async () => redis.redis.get(counter(key));
    const accountCount = async () => redis.redis.get(accountCounter(key));
    return { app, key, quotas, count, accountCount };
  }

  it('gives a 304 back before sending it: its RateLimit-Remaining and the next request see it uncounted', async () => {
    const { app, count } = await limitedApp(3, 60);
    expect((await app.inject('/ok')).headers['ratelimit-remaining']).toBe('2');
    for (let index = 0; index < 5; index += 1) {
      const response = await app.inject('/not-modified');
      expect(response.statusCode).toBe(304);
      expect(response.headers['ratelimit-remaining']).toBe('2');
      expect(response.headers['ratelimit-policy']).toBe('"key";q=3;w=60');
    }
    expect(await count()).toBe('1');
    expect((await app.inject('/ok')).headers['ratelimit-remaining']).toBe('1');
  });

  it('gives back each of many concurrent 304s exactly once', async () => {
    const { app, count } = await limitedApp(100, 60);
    await app.inject('/ok');
    const responses = await Promise.all(Array.from({ length: 30 }, () => app.inject('/not-modified')));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(30).fill(304));
    expect(await count()).toBe('1');
  });

  it('never gives a point into a later window, nor creates a key', async () => {
    // The 304 is counted in a one-second window, which ends while it is being answered.
    const { app, count } = await limitedApp(5, 1, 1_300);
    const slow = app.inject('/slow-304');
    await sleep(1_150);
    // A new window has begun (this request opens it) before the slow 304 is given back.
    expect((await app.inject('/ok')).headers['ratelimit-remaining']).toBe('4');
    expect((await slow).statusCode).toBe(304);
    expect(await count()).toBe('1');

    // Nothing to give back to: the window ended and no request opened another.
    const alone = await limitedApp(5, 1, 1_300);
    expect((await alone.app.inject('/slow-304')).statusCode).toBe(304);
    expect(await alone.count()).toBeNull();
  });

  it('keeps the 304 counted (fails closed) when Redis is lost before the give-back', async () => {
    const { app, count } = await limitedApp(3, 60);
    const response = await app.inject('/304-after-redis-loss');
    expect(response.statusCode).toBe(304);
    expect(response.headers['ratelimit-remaining']).toBe('2');
    expect(await count()).toBe('1');
  });

  it('confirms the vouch in the same step, and counts nothing for a key whose vouch is gone', async () => {
    const { key, quotas } = await limitedApp(5, 60, 0, 5);
    await redis.redis.set(vouchRedisKey(redis.prefix, key.id), 'version 1');
    expect(await quotas.admit(key, 'version 1')).toMatchObject({ kind: 'admitted', key: { count: 1 } });
    // Another version vouched (the row was rolled), or none (revoked): nothing is counted.
    await redis.redis.set(vouchRedisKey(redis.prefix, key.id), 'version 2');
    expect(await quotas.admit(key, 'version 1')).toBe(UNVOUCHED);
    await redis.redis.del(vouchRedisKey(redis.prefix, key.id));
    expect(await quotas.admit(key, 'version 1')).toBe(UNVOUCHED);
    expect(await redis.redis.get(counter(key))).toBe('1');
    expect(await redis.redis.get(accountCounter(key))).toBe('1');
    // Both counters expire with their window.
    expect(await redis.redis.pttl(counter(key))).toBeGreaterThan(59_000);
    expect(await redis.redis.pttl(accountCounter(key))).toBeGreaterThan(59_000);
  });

  it("refuses a key over its quota without counting the account, and an account over its ceiling with the key's count kept", async () => {
    const { app, count, accountCount } = await limitedApp(2, 60, 0, 3);
    expect((await app.inject('/ok')).statusCode).toBe(200);
    expect((await app.inject('/ok')).statusCode).toBe(200);
    const overKey = await app.inject('/ok');
    expect(overKey.statusCode).toBe(429);
    expect(overKey.headers['ratelimit-remaining']).toBe('0');
    expect(Number(overKey.headers['retry-after'])).toBeGreaterThanOrEqual(59);
    expect(await count()).toBe('3');
    expect(await accountCount()).toBe('2');

    const capped = await limitedApp(5, 60, 0, 1);
    expect((await capped.app.inject('/ok')).statusCode).toBe(200);
    const overAccount = await capped.app.inject('/ok');
    expect(overAccount.statusCode).toBe(429);
    expect(overAccount.json<{ detail: string }>().detail).toMatch(/account/);
    expect(overAccount.headers['ratelimit-remaining']).toBe('3');
    expect(await capped.count()).toBe('2');
    expect(await capped.accountCount()).toBe('2');
  });

  it('gives back a request refused before its handler ran, to the key and the account', async () => {
    const { app, count, accountCount } = await limitedApp(3, 60);
    expect((await app.inject('/ok')).headers['ratelimit-remaining']).toBe('2');
    const refused = await app.inject('/refused-early');
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['ratelimit-remaining']).toBe('2');
    expect(await count()).toBe('1');
    expect(await accountCount()).toBe('1');
    // A 304 is given back to the key only: the account's ceiling keeps it (the search still ran).
    expect((await app.inject('/not-modified')).statusCode).toBe(304);
    expect(await count()).toBe('1');
    expect(await accountCount()).toBe('2');
  });
});
