import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { loadConfig } from '@directory/config';
import { createDatabase, migrateToLatest } from '@directory/database';
import { isMarkedRun, markRun, runIdOf, templateDatabaseName, TEST_DATABASE_PREFIX } from './names.js';
import { REPOSITORY_ROOT } from './processes.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: withDatabase(loadConfig().DATABASE_URL, 'postgres') });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Runs once per `vitest run`: brings the real services up (reusing running ones) and builds a migrated
 * template database of this run's own that each spec file clones into a database of its own.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const runId = String(process.pid);
  // Each project that needs servers lists this setup; within one run the first call does the work.
  if (isMarkedRun(runId)) return () => Promise.resolve();
  execFileSync('bash', ['infra/local/services.sh', 'up'], { cwd: REPOSITORY_ROOT, stdio: 'inherit' });
  markRun(runId);
  const template = templateDatabaseName(runId);

  await withAdmin(async (admin) => {
    // Leftovers of runs that died without cleaning up.
    const existing = await admin.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [`${TEST_DATABASE_PREFIX}%`],
    );
    for (const row of existing.rows) {
      const owner = runIdOf(row.datname);
      if (owner === null || !isAlive(Number(owner))) {
        await admin.query(`drop database if exists "${row.datname}" with (force)`);
      }
    }
    await admin.query(`create database "${template}"`);
  });

  const templateDb = createDatabase(withDatabase(loadConfig().DATABASE_URL, template), { maxConnections: 1 });
  try {
    await migrateToLatest(templateDb);
  } finally {
    await templateDb.destroy();
  }

  return async () => {
    await withAdmin((admin) => admin.query(`drop database if exists "${template}" with (force)`));
  };
}

export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}
