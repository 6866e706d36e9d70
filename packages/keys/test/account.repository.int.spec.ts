import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@directory/testing';
import {
  ensureAccount,
  findAccountByEmail,
  findAccountCredentials,
  insertAccount,
} from '../src/account.repository.js';

describe('account store on the local PostgreSQL', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('accounts-repository');
  });
  afterAll(async () => {
    await test.drop();
  });

  it('ensureAccount is idempotent and case-insensitive, and the account cannot sign in', async () => {
    const [first, second] = await Promise.all([
      ensureAccount(test.db, 'Ops@Example.com'),
      ensureAccount(test.db, 'ops@example.com'),
    ]);
    expect(first.id).toBe(second.id);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    const row = await test.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBe('!');
  });

  it('ensureAccount takes only what the console accepts as an email, and nothing longer than 254 characters', async () => {
    for (const refused of ['ops', 'ops@localhost', 'ops @example.com', `${'o'.repeat(243)}@example.com`]) {
      await expect(ensureAccount(test.db, refused), refused).rejects.toThrow(/must be an email address/);
    }
    expect((await ensureAccount(test.db, ` ${'o'.repeat(242)}@example.com `)).created).toBe(true);
  });

  it('inserts an account once per email, whatever its case, and finds it by email in any case', async () => {
    const created = await insertAccount(test.db, { email: 'Holder@Example.com', passwordHash: 'hash' });
    expect(created).not.toBeNull();
    expect(await insertAccount(test.db, { email: 'holder@example.com', passwordHash: 'other' })).toBeNull();

    expect(await findAccountByEmail(test.db, ' HOLDER@example.com ')).toBe(created?.id);
    expect(await findAccountCredentials(test.db, 'holder@EXAMPLE.com')).toEqual({
      id: created?.id,
      email: 'Holder@Example.com',
      passwordHash: 'hash',
    });
    expect(await findAccountByEmail(test.db, 'nobody@example.com')).toBeNull();
    expect(await findAccountCredentials(test.db, 'nobody@example.com')).toBeNull();
  });
});
