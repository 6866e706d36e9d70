import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@directory/testing';
import { addUsageBatch, createApiKey, ensureAccount, findApiKey, usageOfKeys } from '../src/index.js';

describe('key usage store on the local PostgreSQL', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('keys-usage');
  });
  afterAll(() => test.drop());

  it('adds counts per key and day, each batch exactly once, and never moves last use backwards', async () => {
    const account = await ensureAccount(test.db, 'usage@example.com');
    const { key } = await createApiKey(test.db, { accountId: account.id, name: 'used' });
    const later = new Date('2025-04-02T10:00:00.000Z');
    const batch = {
      id: 'batch-1',
      counts: [
        { keyId: key.id, day: '2025-04-01', requests: 10, limited: 2 },
        { keyId: key.id, day: '2025-04-02', requests: 3, limited: 0 },
        // A key deleted meanwhile is skipped, not a failure.
        { keyId: 'gone', day: '2025-04-02', requests: 1, limited: 0 },
      ],
      lastUsed: [{ keyId: key.id, at: later }],
    };
    expect(await addUsageBatch(test.db, batch)).toBe(true);
    // The same batch again (a flush retried after a crash) adds nothing.
    expect(await addUsageBatch(test.db, batch)).toBe(false);
    expect(
      await addUsageBatch(test.db, {
        id: 'batch-2',
        counts: [{ keyId: key.id, day: '2025-04-02', requests: 4, limited: 1 }],
        lastUsed: [{ keyId: key.id, at: new Date('2025-04-01T00:00:00.000Z') }],
      }),
    ).toBe(true);

    expect(await usageOfKeys(test.db, [key.id], '2025-04-01')).toEqual([
      { keyId: key.id, day: '2025-04-01', requests: 10, limited: 2 },
      { keyId: key.id, day: '2025-04-02', requests: 7, limited: 1 },
    ]);
    expect(await usageOfKeys(test.db, [key.id], '2025-04-02')).toHaveLength(1);
    expect(await usageOfKeys(test.db, [], '2025-04-01')).toEqual([]);
    expect((await findApiKey(test.db, key.id))?.lastUsedAt).toEqual(later);
  });
});
