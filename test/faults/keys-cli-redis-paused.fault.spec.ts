import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkKeyBySecret, createApiKey, ensureAccount, listApiKeys } from '@directory/keys';
import {
  createTestDatabase,
  startPrivateRedis,
  startProcess,
  type PrivateRedis,
  type TestDatabase,
} from '@directory/testing';

// What `npm run keys -- revoke|roll` does when Redis is paused (SIGSTOP: its connections stay open,
// nothing is answered): it must give up within seconds, say why, and leave the key's row alone, since
// the bar that comes before the write was not set. The paused Redis is a private one.
describe('fault: the keys CLI against a paused Redis', () => {
  let redis: PrivateRedis;
  let test: TestDatabase;
  const prefix = `keys-cli-paused-${Date.now()}`;
  // Far more than the CLI needs to start and give up; a CLI without a command timeout never exits.
  const EXIT_WITHIN_MS = 30_000;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    test = await createTestDatabase('keys-cli-paused');
  });
  afterAll(async () => {
    redis?.resume();
    await test?.drop();
    await redis?.destroy();
  });

  async function keys(...args: string[]): Promise<{ code: number | null; output: string; ms: number }> {
    const started = performance.now();
    const cli = startProcess('packages/keys/src/keys.cli.ts', args, {
      DATABASE_URL: test.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: prefix,
    });
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      cli.exited,
      new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), EXIT_WITHIN_MS))),
    ]);
    clearTimeout(timer);
    if (code === 'hung') {
      await cli.stop('SIGKILL');
      throw new Error(`keys ${args.join(' ')} did not exit within ${EXIT_WITHIN_MS} ms:\n${cli.output()}`);
    }
    return { code, output: cli.output(), ms: performance.now() - started };
  }

  it('revoke and roll exit 3 (a dependency unreachable) saying Redis did not answer, and the key keeps working', async () => {
    const account = await ensureAccount(test.db, 'paused@example.com');
    const { key, secret } = await createApiKey(test.db, { accountId: account.id, name: 'paused' });

    redis.pause();
    const revoke = await keys('revoke', key.id);
    const roll = await keys('roll', key.id, '--grace', 'none');
    redis.resume();
    console.info(
      `against a paused Redis: revoke exited in ${Math.round(revoke.ms)} ms, roll in ${Math.round(roll.ms)} ms`,
    );

    for (const attempt of [revoke, roll]) {
      expect(attempt.code, attempt.output).toBe(3);
      expect(attempt.output).toMatch(/Redis did not answer at REDIS_URL/);
    }
    // Neither wrote the row: the key is not revoked, and no successor was made.
    expect((await checkKeyBySecret(test.db, secret)).kind).toBe('active');
    const rows = await listApiKeys(test.db, account.id);
    expect(rows.map((row) => [row.id, row.revokedAt])).toEqual([[key.id, null]]);

    // Once Redis answers, the same command works.
    const answered = await keys('revoke', key.id);
    expect(answered.code, answered.output).toBe(0);
    expect((await checkKeyBySecret(test.db, secret)).kind).toBe('refused');
  });
});
