import { loadConfig } from '@directory/config';
import { applySessionDefaults, createDatabase, type Database } from '@directory/database';
import { withAdmin, withDatabase } from './admin.js';
import { currentRunId, templateDatabaseName, testDatabaseName } from './names.js';

export type TestDatabase = { url: string; db: Database; drop: () => Promise<void> };

/** A migrated database of the spec file's own, cloned from the template built by the global setup. */
export function createTestDatabase(label: string): Promise<TestDatabase> {
  return createDatabaseFor(label, { template: templateDatabaseName(currentRunId()), maxConnections: 5 });
}

/** An empty database (no migrations), for migration tests. */
export function createEmptyDatabase(label: string): Promise<TestDatabase> {
  return createDatabaseFor(label, { maxConnections: 2 });
}

async function createDatabaseFor(
  label: string,
  options: { template?: string; maxConnections: number },
): Promise<TestDatabase> {
  const name = testDatabaseName(currentRunId(), label);
  const template = options.template ? ` template "${options.template}"` : '';
  await withAdmin(async (admin) => {
    await admin.query(`create database "${name}"${template}`);
    // A test database needs no durability: a commit that does not wait for its WAL to reach the disk
    // (about 3 ms here) makes the specs that write row by row several times faster. Visibility and
    // ordering are unchanged; only a crash of the shared server could lose the last commits, and no spec
    // stops it (the fault scenarios' own servers keep the default).
    await admin.query(`alter database "${name}" set synchronous_commit = off`);
  });
  const url = withDatabase(loadConfig().DATABASE_URL, name);
  const db = createDatabase(url, { maxConnections: options.maxConnections });
  // A clone does not inherit its template's `alter database … set` defaults: give it them.
  if (options.template) await applySessionDefaults(db);
  return {
    url,
    db,
    drop: async () => {
      await db.destroy();
      await withAdmin(async (admin) => {
        // The pool's sockets may still be closing; forcing them shut would surface in the test process
        // as an uncaught 'terminating connection' error. Wait (briefly) until they are gone.
        for (let attempt = 0; attempt < 50; attempt++) {
          const open = await admin.query('select 1 from pg_stat_activity where datname = $1', [name]);
          if (open.rowCount === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await admin.query(`drop database if exists "${name}" with (force)`);
      });
    },
  };
}
