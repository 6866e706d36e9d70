import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { usageDay } from '@directory/domain';
import { createKeyVouches, findApiKey, rollApiKey, usageOfKeys } from '@directory/keys';
import { createApiHarness, createCaller, type ApiHarness, type Caller } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

/** Key expiry, rolling and usage through the real API stack (PostgreSQL, Redis, Elasticsearch). */
describe('key lifecycle through the API', () => {
  let harness: ApiHarness;
  let app: FastifyInstance;
  let call: Caller;

  beforeAll(async () => {
    harness = await createApiHarness('api-key-lifecycle');
    app = await harness.newApp({ rateLimit: { max: 3, windowSeconds: 60 }, usageFlushIntervalMs: 200 });
    call = await createCaller(app);
  });
  afterAll(() => harness.close());

  const vouches = () => createKeyVouches(harness.redis.redis, harness.redis.prefix);
  const keyCall = (secret: string) => call({ url: '/api/v1/key', headers: { 'x-api-key': secret } });

  it('refuses an expired key with a 401 that says it expired, and nothing more', async () => {
    const { id, secret } = await harness.createKey('expired@example.com', 'short-lived');
    expect((await keyCall(secret)).statusCode).toBe(200);
    const expiresAt = new Date(Date.now() - 60_000);
    // Written directly, after the bar every write to a key's row starts with (key-vouches.ts).
    await vouches().bar(id);
    await harness.database.db
      .updateTable('api_keys')
      .set({ expires_at: expiresAt })
      .where('id', '=', id)
      .execute();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const problem = expectProblem(await keyCall(secret), 401);
      expect(problem.detail).toMatch(/has expired/);
      expect(problem.detail).not.toContain(expiresAt.toISOString().slice(0, 10));
      expect(problem.detail).not.toContain('short-lived');
    }
    // An unknown key still gets the generic answer.
    const unknown = expectProblem(
      await keyCall(secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a')),
      401,
    );
    expect(unknown.detail).not.toMatch(/expired/);
  });

  it('keeps both secrets of a key rolled with a grace period working, until the period ends', async () => {
    const { id, secret } = await harness.createKey('rolled@example.com', 'rolled');
    const rolled = await rollApiKey(harness.database.db, vouches(), id, { grace: '1h' });
    const successor = rolled?.secret ?? '';
    expect((await keyCall(secret)).json()).toMatchObject({ key: { id, name: 'rolled' } });
    expect((await keyCall(successor)).json()).toMatchObject({ key: { id: rolled?.key.id, name: 'rolled' } });
    // The grace period ends a moment from now (as if the hour had passed): the old secret stops then.
    const end = new Date(Date.now() + 500);
    await vouches().bar(id);
    await harness.database.db.updateTable('api_keys').set({ revoked_at: end }).where('id', '=', id).execute();
    await new Promise((resolve) => setTimeout(resolve, end.getTime() - Date.now() + 10));
    expect(expectProblem(await keyCall(secret), 401).detail).not.toMatch(/expired/);
    expect((await keyCall(successor)).statusCode).toBe(200);
  });

  it('counts every authenticated request of a key per day, 429s apart, and its last use', async () => {
    const { id, secret } = await harness.createKey('counted@example.com', 'counted');
    const before = Date.now();
    const statuses = [];
    for (let attempt = 0; attempt < 5; attempt += 1) statuses.push((await keyCall(secret)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // A refused secret counts for no key.
    expect((await call({ url: '/api/v1/key', headers: { 'x-api-key': 'nope' } })).statusCode).toBe(401);

    const deadline = Date.now() + 10_000;
    let usage = await usageOfKeys(harness.database.db, [id], usageDay(before));
    while (usage[0]?.requests !== 5 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      usage = await usageOfKeys(harness.database.db, [id], usageDay(before));
    }
    expect(usage).toEqual([{ keyId: id, day: usageDay(Date.now()), requests: 5, limited: 2 }]);
    const lastUsed = (await findApiKey(harness.database.db, id))?.lastUsedAt?.getTime() ?? 0;
    expect(lastUsed).toBeGreaterThanOrEqual(before);
    expect(lastUsed).toBeLessThanOrEqual(Date.now());
  });
});
