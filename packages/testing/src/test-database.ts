import { loadConfig } from '@directory/config';
import { createDatabase, type Database } from '@directory/database';
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
  await withAdmin((admin) => admin.query(`create database "${name}"${template}`));
  const url = withDatabase(loadConfig().DATABASE_URL, name);
  const db = createDatabase(url, { maxConnections: options.maxConnections });
  return {
    url,
    db,
    drop: async () => {
      await db.destroy();
      await withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`));
    },
  };
}
