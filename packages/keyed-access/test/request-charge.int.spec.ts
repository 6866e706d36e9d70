import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UNVOUCHED, type ActiveApiKey } from '@directory/keys';
import { createTestRedis, type TestRedis } from '@directory/testing';
import {
  accountCounterRedisKey,
  chargeRequest,
  createServiceRedis,
  rateLimitRedisKey,
  type Charge,
} from '../src/index.js';
import { registerRequestQuotas } from '../src/request-quotas.js';

/** Charging more units to an admitted request (a route whose cost grows with its answer), on real Redis. */
describe('request quotas: charging units beyond the admission (Redis)', () => {
  let redis: TestRedis;
  const apps: FastifyInstance[] = [];
  const connections: Redis[] = [];
  let keys = 0;

  beforeAll(() => {
    redis = createTestRedis('request-charge');
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    for (const connection of connections.splice(0)) connection.disconnect();
  });
  afterAll(() => redis.cleanup());

  const newKey = (): ActiveApiKey => {
    keys += 1;
    return {
      id: `charge-key-${keys}`,
      accountId: `charge-account-${keys}`,
      name: 'test',
      prefix: 'dk_live_0Xb4',
      mode: 'live',
      creationTime: new Date(0),
    };
  };
  const count = async (counter: string) => Number((await redis.redis.get(counter)) ?? 0);

  /** An app whose `/charge/:units` charges that many units after the admission and answers the outcomes. */
  async function chargingApp(keyMax: number, accountMax: number) {
    const key = newKey();
    const connection = createServiceRedis(redis.url, { autoPipelining: true });
    connection.on('error', () => undefined);
    connections.push(connection);
    const app = Fastify({ logger: false });
    await app.register((scope, _options, done) => {
      const quotas = registerRequestQuotas(scope, {
        redis: connection,
        prefix: redis.prefix,
        keyMax,
        accountMax,
        windowSeconds: 600,
      });
      scope.addHook('onRequest', async (request, reply) => {
        const admission = await quotas.admit(key, null);
        if (admission === UNVOUCHED) throw new Error('no vouch to confirm, yet unvouched');
        quotas.apply(request, reply, key, admission);
      });
      scope.get('/charge/:units', async (request) => {
        const units = Number((request.params as { units: string }).units);
        const outcomes: Charge[] = [];
        for (let step = 0; step < units; step += 1) outcomes.push(await chargeRequest(request, 1));
        return outcomes;
      });
      done();
    });
    apps.push(app);
    const charge = async (units: number) => (await app.inject(`/charge/${units}`)).json<Charge[]>();
    return {
      charge,
      keyCounter: rateLimitRedisKey(redis.prefix, key.id),
      accountCounter: accountCounterRedisKey(redis.prefix, key),
    };
  }

  it('charges the key and the account while within quota, keeping the window', async () => {
    const limited = await chargingApp(5, 100);
    const outcomes = await limited.charge(3);
    expect(outcomes).toEqual([{ withinQuota: true }, { withinQuota: true }, { withinQuota: true }]);
    expect(await count(limited.keyCounter)).toBe(4);
    expect(await count(limited.accountCounter)).toBe(4);
    const ttl = await redis.redis.pttl(limited.keyCounter);
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });

  it("refuses, without counting, the units past the key's quota", async () => {
    const limited = await chargingApp(3, 100);
    const outcomes = await limited.charge(4);
    expect(outcomes.slice(0, 2)).toEqual([{ withinQuota: true }, { withinQuota: true }]);
    expect(outcomes[2]).toMatchObject({ withinQuota: false, which: 'key' });
    expect(outcomes[3]).toMatchObject({ withinQuota: false, which: 'key' });
    const refused = outcomes[2] as Extract<Charge, { withinQuota: false }>;
    expect(refused.retryAfterSeconds).toBeGreaterThan(590);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect(await count(limited.keyCounter)).toBe(3);
    expect(await count(limited.accountCounter)).toBe(3);
  });

  it("gives the key's units back when the account's ceiling refuses them", async () => {
    const limited = await chargingApp(100, 2);
    const outcomes = await limited.charge(2);
    expect(outcomes[0]).toEqual({ withinQuota: true });
    expect(outcomes[1]).toMatchObject({ withinQuota: false, which: 'account' });
    expect(await count(limited.keyCounter)).toBe(2);
    expect(await count(limited.accountCounter)).toBe(2);
  });
});
