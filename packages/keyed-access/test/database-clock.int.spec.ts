import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '@directory/http-server';
import { createApiKey, ensureAccount } from '@directory/keys';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@directory/testing';
import { keyedAccessProblemMappings, registerKeyedAccess } from '../src/index.js';

describe("keyed access on a host whose clock lags the database's (real PostgreSQL and Redis)", () => {
  let database: TestDatabase;
  let redis: TestRedis;
  beforeAll(async () => {
    database = await createTestDatabase('database-clock');
    redis = createTestRedis('database-clock');
  });
  afterAll(async () => {
    await redis.cleanup();
    await database.drop();
  });

  it('refuses a key expired by the database, exports the skew and warns once', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({ logger: { level: 'warn', stream: logStream } });
    installErrorHandling(app, { notFoundDetail: 'no such route', mappings: keyedAccessProblemMappings });
    const metrics = new Registry();
    await app.register((scope, _options, done) => {
      registerKeyedAccess(scope, {
        db: database.db,
        redis: redis.redis,
        redisPrefix: redis.prefix,
        rateLimit: { max: 1_000, windowSeconds: 60 },
        accountMax: 1_000,
        failedAuth: { max: 1_000, windowSeconds: 60, refusalDelayMs: 0 },
        unknownKeyCacheSeconds: 60,
        trustedProxies: [],
        clientIpv6PrefixBits: 64,
        metrics,
        // This host's clock runs five minutes behind the database's.
        hostNow: () => Date.now() - 300_000,
      });
      scope.get('/key', () => ({ ok: true }));
      done();
    });
    try {
      const account = await ensureAccount(database.db, 'clock@example.com');
      const working = await createApiKey(database.db, { accountId: account.id, name: 'working' });
      const expired = await createApiKey(database.db, { accountId: account.id, name: 'expired' });
      // Expired a minute ago by the database's clock: four minutes ahead by this host's.
      await database.db
        .updateTable('api_keys')
        .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
        .where('id', '=', expired.key.id)
        .execute();
      const call = (secret: string) => app.inject({ url: '/key', headers: { 'x-api-key': secret } });

      expect((await call(working.secret)).statusCode).toBe(200);
      const refused = await call(expired.secret);
      expect(refused.statusCode).toBe(401);
      expect(refused.json<{ detail: string }>().detail).toMatch(/expired/);

      const skew = (await metrics.getSingleMetric('key_check_database_clock_skew_seconds')?.get())?.values[0]
        ?.value;
      expect(Math.abs((skew ?? 0) - 300)).toBeLessThan(1);
      const warnings = lines.filter((line) => line.includes("database's clock and this host's differ"));
      expect(warnings).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
