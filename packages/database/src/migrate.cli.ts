// `npm run migrate`: create the database if needed and apply pending migrations (idempotent).
import { loadConfigOrExit } from '@directory/config';
import { createDatabase, ensureDatabaseExists } from './connection.js';
import { migrateToLatest } from './migrator.js';

const config = loadConfigOrExit();
const created = await ensureDatabaseExists(config.DATABASE_URL);
if (created) console.error('[migrate] created database');
const db = createDatabase(config.DATABASE_URL, { maxConnections: 1 });
try {
  // The server-side bounds every session gets (no start-up parameters: poolers refuse them).
  const applied = await migrateToLatest(db, {
    statementTimeoutMs: config.DATABASE_JOB_STATEMENT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  });
  console.error(applied.length ? `[migrate] applied: ${applied.join(', ')}` : '[migrate] already up to date');
} finally {
  await db.destroy();
}
