import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@directory/testing';
import { applySessionDefaults, createDatabase, type Database } from '../src/connection.js';

type SettingName = 'jit' | 'statement_timeout' | 'idle_in_transaction_session_timeout';

describe('createDatabase and the session defaults', () => {
  let database: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    database = await createTestDatabase('connection');
    await applySessionDefaults(database.db, { statementTimeoutMs: 4_321, idleInTransactionTimeoutMs: 9_876 });
    // Opened after: the defaults reach sessions that start later. The pool's own statement timeout is
    // client-side only, so it must not show up in the session.
    db = createDatabase(database.url, { maxConnections: 1, timeouts: { statementTimeoutMs: 1_234 } });
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  async function setting(name: SettingName) {
    const result = await sql<{ value: string; source: string }>`
      select current_setting(${name}) as value, source from pg_settings where name = ${name}`.execute(db);
    return result.rows[0];
  }

  it('gives every session its timeouts and no JIT compilation from the database, not from start-up parameters', async () => {
    // `source` is `database` for an `alter database … set` default; a start-up parameter (which a
    // transaction-mode pooler refuses) would show as `client`.
    expect(await setting('jit')).toEqual({ value: 'off', source: 'database' });
    expect(await setting('statement_timeout')).toEqual({ value: '4321ms', source: 'database' });
    expect(await setting('idle_in_transaction_session_timeout')).toEqual({
      value: '9876ms',
      source: 'database',
    });
  });

  it('abandons a statement on the client side after its own statement timeout', async () => {
    const started = Date.now();
    await expect(sql`select pg_sleep(3)`.execute(db)).rejects.toThrow(/Query read timeout/);
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});
