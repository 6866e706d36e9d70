import pg from 'pg';
import { loadConfig } from '@directory/config';
import { createDatabase, type Database } from '@directory/database';
import { withDatabase } from './global-setup.js';
import { currentRunId, templateDatabaseName, testDatabaseName } from './names.js';

export type TestDatabase = { url: string; db: Database; drop: () => Promise<void> };

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: withDatabase(loadConfig().DATABASE_URL, 'postgres') });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** A migrated database of the spec file's own, cloned from the template built by the global setup. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const runId = currentRunId();
  const name = testDatabaseName(runId, label);
  await withAdmin((admin) =>
    admin.query(`create database "${name}" template "${templateDatabaseName(runId)}"`),
  );
  const url = withDatabase(loadConfig().DATABASE_URL, name);
  const db = createDatabase(url, { maxConnections: 5 });
  return {
    url,
    db,
    drop: async () => {
      await db.destroy();
      await withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/** An empty database (no migrations), for migration tests. */
export async function createEmptyDatabase(label: string): Promise<TestDatabase> {
  const name = testDatabaseName(currentRunId(), label);
  await withAdmin((admin) => admin.query(`create database "${name}"`));
  const url = withDatabase(loadConfig().DATABASE_URL, name);
  const db = createDatabase(url, { maxConnections: 2 });
  return {
    url,
    db,
    drop: async () => {
      await db.destroy();
      await withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`));
    },
  };
}
