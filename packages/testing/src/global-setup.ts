import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '@directory/config';
import { createDatabase, migrateToLatest } from '@directory/database';
import { TEMPLATE_DATABASE, TEST_DATABASE_PREFIX } from './names.js';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Runs once per `vitest run`: brings the real services up (reusing running ones) and builds a migrated
 * template database that each spec file clones into a database of its own.
 */
export default async function globalSetup(): Promise<void> {
  execFileSync('bash', ['infra/local/services.sh', 'up'], { cwd: repositoryRoot, stdio: 'inherit' });

  const config = loadConfig();
  const adminUrl = withDatabase(config.DATABASE_URL, 'postgres');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // Leftovers of an interrupted earlier run.
    const stale = await admin.query<{ datname: string }>(
      'select datname from pg_database where datname like $1 or datname = $2',
      [`${TEST_DATABASE_PREFIX}%`, TEMPLATE_DATABASE],
    );
    for (const row of stale.rows) await admin.query(`drop database if exists "${row.datname}" with (force)`);
    await admin.query(`create database "${TEMPLATE_DATABASE}"`);
  } finally {
    await admin.end();
  }

  const template = createDatabase(withDatabase(config.DATABASE_URL, TEMPLATE_DATABASE), {
    maxConnections: 1,
  });
  try {
    await migrateToLatest(template);
  } finally {
    await template.destroy();
  }
}

export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}
