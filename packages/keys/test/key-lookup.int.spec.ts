import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@directory/domain';
import { createTestDatabase, type TestDatabase } from '@directory/testing';
import { createApiKey, createKeyLookup, ensureAccount, revokeApiKey } from '../src/index.js';

describe('key lookup with a memory of unknown keys', () => {
  let test: TestDatabase;
  let queries = 0;
  const counting: KyselyPlugin = {
    transformQuery: (args) => ((queries += 1), args.node),
    transformResult: (args) => Promise.resolve(args.result),
  };

  beforeAll(async () => {
    test = await createTestDatabase('keys-lookup');
  });
  afterAll(() => test.drop());

  it('asks the database once for a repeated unknown key, never for a malformed one', async () => {
    const lookup = createKeyLookup(test.db.withPlugin(counting), { unknownKeyCacheSeconds: 60 });
    const unknown = generateApiKey(new Uint8Array(32).fill(9)).secret;
    const before = queries;
    for (let attempt = 0; attempt < 10; attempt += 1) expect(await lookup(unknown)).toBeNull();
    expect(await lookup('dk_live_not-a-key')).toBeNull();
    expect(queries - before).toBe(1);
  });

  it('looks an active key up every time, so a revocation takes effect on the next lookup', async () => {
    const lookup = createKeyLookup(test.db.withPlugin(counting), { unknownKeyCacheSeconds: 60 });
    const account = await ensureAccount(test.db, 'lookup@example.com');
    const { key, secret } = await createApiKey(test.db, { accountId: account.id, name: 'lookup' });
    const before = queries;
    expect((await lookup(secret))?.id).toBe(key.id);
    expect((await lookup(secret))?.id).toBe(key.id);
    expect(queries - before).toBe(2);
    await revokeApiKey(test.db, key.id);
    expect(await lookup(secret)).toBeNull();
  });

  it('with a memory of 0 seconds, asks the database every time', async () => {
    const lookup = createKeyLookup(test.db.withPlugin(counting), { unknownKeyCacheSeconds: 0 });
    const unknown = generateApiKey(new Uint8Array(32).fill(11)).secret;
    const before = queries;
    for (let attempt = 0; attempt < 3; attempt += 1) expect(await lookup(unknown)).toBeNull();
    expect(queries - before).toBe(3);
  });
});
