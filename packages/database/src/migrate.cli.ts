// `npm run migrate`: create the databases if needed and apply pending migrations (idempotent): the live
// database, then the sandbox's (what test-mode keys read; its own database, the same schema).
import { loadConfigOrExit, sandboxStoreNames } from '@directory/config';
import { createDatabase, ensureDatabaseExists } from './connection.js';
import { migrateToLatest } from './migrator.js';

const config = loadConfigOrExit();
for (const [name, url] of [
  ['database', config.DATABASE_URL],
  ['sandbox database', sandboxStoreNames(config).databaseUrl],
] as const) {
  const created = await ensureDatabaseExists(url);
  if (created) console.error(`[migrate] created ${name}`);
  const db = createDatabase(url, { maxConnections: 1 });
  try {
    // The server-side bounds every session gets (no start-up parameters: poolers refuse them).
    const applied = await migrateToLatest(db, {
      statementTimeoutMs: config.DATABASE_JOB_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    });
    console.error(
      applied.length
        ? `[migrate] ${name}: applied ${applied.join(', ')}`
        : `[migrate] ${name}: already up to date`,
    );
  } finally {
    await db.destroy();
  }
}
