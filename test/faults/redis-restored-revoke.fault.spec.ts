import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  barRedisKey,
  createApiKey,
  createKeyVouches,
  ensureAccount,
  revokeApiKey,
  vouchRedisKey,
} from '@directory/keys';
import {
  createTestDatabase,
  eventually,
  startPrivateRedis,
  type PrivateRedis,
  type TestDatabase,
} from '@directory/testing';
import {
  faultEnvironment,
  lastOutput,
  startService,
  type RunningService,
} from './service-processes.fixture.js';

// A Redis that keeps data on disk (RDB or AOF) can come back from a crash holding what it had before the
// last writes, here a key's vouch from before its revoke and not the bar: the API, which remembers the
// key's row, must still refuse the key. The crash is a private Redis's; PostgreSQL is the shared one.
describe('fault: Redis restarts from a snapshot taken before a revoke', () => {
  let redis: PrivateRedis;
  let test: TestDatabase;
  let operator: Redis;
  const services: RunningService[] = [];
  const prefix = `restored-revoke-${Date.now()}`;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    test = await createTestDatabase('restored-revoke');
    // The operator's side (revoke), as the CLI connects: one retry, errors surface as failed commands.
    operator = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    operator.on('error', () => undefined);
    services.push(
      await startService(
        'api',
        faultEnvironment({ DATABASE_URL: test.url, REDIS_URL: redis.url, REDIS_PREFIX: prefix }),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.process.stop('SIGKILL')));
    operator?.disconnect();
    await test?.drop();
    await redis?.destroy();
  });
  beforeEach((context) => {
    context.onTestFailed(() => console.error(lastOutput(services)));
  });

  it('refuses the revoked key after the restart, and serves the key that was not revoked', async () => {
    const api = services[0]?.base ?? '';
    const account = await ensureAccount(test.db, 'restored@example.com');
    const revoked = await createApiKey(test.db, { accountId: account.id, name: 'revoked' });
    const kept = await createApiKey(test.db, { accountId: account.id, name: 'kept' });
    const status = async (secret: string) =>
      (
        await fetch(`${api}/api/v1/key`, {
          headers: { 'x-api-key': secret },
          signal: AbortSignal.timeout(10_000),
        })
      ).status;

    // Both keys used: the API has read their rows and Redis vouches for them; the snapshot holds that.
    for (const secret of [revoked.secret, kept.secret, revoked.secret, kept.secret])
      expect(await status(secret)).toBe(200);
    await operator.save();
    // Revoked by the operator (barred before and after the row is written), then Redis crashes before
    // anything saves the bar: the next start loads the snapshot.
    await revokeApiKey(test.db, createKeyVouches(operator, prefix), revoked.key.id);
    await redis.kill();
    await redis.start();
    // The scenario is real: the restored Redis vouches for the row the API remembers from before the revoke.
    expect(await operator.get(vouchRedisKey(prefix, revoked.key.id))).not.toBeNull();
    expect(await operator.exists(barRedisKey(prefix, revoked.key.id))).toBe(0);

    // The API reconnects by itself (503s meanwhile); its first other answer must be the 401.
    let answer = 503;
    await eventually(
      async () => {
        answer = await status(revoked.secret);
        return answer !== 503;
      },
      20_000,
      'the API to answer something other than 503 after the restart',
    );
    expect(answer).toBe(401);
    expect(await status(revoked.secret)).toBe(401);
    expect(await status(kept.secret)).toBe(200);
  });
});
