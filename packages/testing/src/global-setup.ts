import { execFileSync } from 'node:child_process';
import { loadConfig } from '@directory/config';
import { createDatabase, migrateToLatest } from '@directory/database';
import { isMarkedRun, markRun, runIdOf, templateDatabaseName, TEST_DATABASE_PREFIX } from './names.js';
import { REPOSITORY_ROOT } from './processes.js';
import { withAdmin, withDatabase } from './admin.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
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
  // `up` also installs the Debian packages the tests need when they are missing (PgBouncer for the
  // failover cluster scenario, Chromium for the console's browser specs), or stops naming the command.
  try {
    execFileSync('bash', ['infra/local/services.sh', 'up'], { cwd: REPOSITORY_ROOT, stdio: 'inherit' });
  } catch {
    throw new Error('infra/local/services.sh up failed: its message is printed above');
  }
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
