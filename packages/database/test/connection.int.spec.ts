import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@directory/config';
import { withDatabase } from '@directory/testing';
import { createDatabase } from '../src/connection.js';

describe('createDatabase', () => {
  // The server's own maintenance database: the settings asked for are per session, not per database.
  const db = createDatabase(withDatabase(loadConfig().DATABASE_URL, 'postgres'), {
    maxConnections: 1,
    timeouts: { statementTimeoutMs: 4_321, idleInTransactionTimeoutMs: 9_876 },
  });
  afterAll(async () => {
    await db.destroy();
  });

  async function setting(name: 'jit' | 'statement_timeout' | 'idle_in_transaction_session_timeout') {
    const result = await sql<{ value: string }>`select current_setting(${name}) as value`.execute(db);
    return result.rows[0]?.value;
  }

  it('opens sessions with its timeouts and without JIT compilation, whatever the server defaults to', async () => {
    expect(await setting('jit')).toBe('off');
    expect(await setting('statement_timeout')).toBe('4321ms');
    expect(await setting('idle_in_transaction_session_timeout')).toBe('9876ms');
  });
});
