import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestRedis, type TestRedis } from '@directory/testing';
import { createServiceRedis, rateLimitRedisNamespace } from '../src/index.js';
import { registerRateLimit } from '../src/rate-limit.plugin.js';

/**
 * The per-key limiter's give-back of a 304, on its own: routes answer 304 themselves (in the API the
 * caching hook does), so the edges can be timed exactly. The API's specs cover the whole path.
 */
describe('rate limit: a 304 is given back (Redis)', () => {
  let redis: TestRedis;
  const apps: FastifyInstance[] = [];
  const connections: Redis[] = [];
  let keys = 0;

  beforeAll(() => {
    redis = createTestRedis('rate-limit-304');
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    for (const connection of connections.splice(0)) connection.disconnect();
  });
  afterAll(() => redis.cleanup());

  /** An app limited per `key`, with `/ok` (200), `/not-modified` (304) and `/slow-304` (304 after `slowMs`). */
  async function limitedApp(max: number, windowSeconds: number, slowMs = 0) {
    const key = `key-${(keys += 1)}`;
    const connection = createServiceRedis(redis.url, { autoPipelining: true });
    connection.on('error', () => undefined);
    connections.push(connection);
    const app = Fastify({ logger: false });
    await app.register(async (scope) => {
      await registerRateLimit(scope, {
        redis: connection,
        prefix: redis.prefix,
        max,
        windowSeconds,
        keyOf: () => key,
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
    });
    await app.ready();
    apps.push(app);
    const count = async () => redis.redis.get(`${rateLimitRedisNamespace(redis.prefix)}${key}`);
    return { app, count };
  }

  it('gives a 304 back before sending it: its RateLimit-Remaining and the next request see it uncounted', async () => {
    const { app, count } = await limitedApp(3, 60);
    expect((await app.inject('/ok')).headers['ratelimit-remaining']).toBe('2');
    for (let index = 0; index < 5; index += 1) {
      const response = await app.inject('/not-modified');
      expect(response.statusCode).toBe(304);
      expect(response.headers['ratelimit-remaining']).toBe('2');
      expect(response.headers['ratelimit-policy']).toBe('3;w=60');
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
});
