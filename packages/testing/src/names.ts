import { randomBytes } from 'node:crypto';

/** A short random lowercase name, valid as a database, Redis prefix and Elasticsearch index prefix. */
export function uniqueName(label: string): string {
  const safeLabel = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 20);
  return `t_${safeLabel}_${randomBytes(5).toString('hex')}`;
}

/**
 * Test databases carry the pid of the `vitest` run that made them, so runs side by side (two terminals,
 * a developer and CI) never drop each other's databases, and leftovers of dead runs can be recognised.
 */
export const TEST_DATABASE_PREFIX = 'dirtest_';
const RUN_VARIABLE = 'DIRECTORY_TEST_RUN';

export function currentRunId(): string {
  const run = process.env[RUN_VARIABLE];
  if (!run)
    throw new Error(`${RUN_VARIABLE} is not set: run tests through vitest (its global setup sets it)`);
  return run;
}

export function isMarkedRun(runId: string): boolean {
  return process.env[RUN_VARIABLE] === runId;
}

export function markRun(runId: string): void {
  process.env[RUN_VARIABLE] = runId;
}

export function templateDatabaseName(runId: string): string {
  return `${TEST_DATABASE_PREFIX}${runId}_template`;
}

export function testDatabaseName(runId: string, label: string): string {
  return `${TEST_DATABASE_PREFIX}${runId}_${uniqueName(label)}`;
}

/** The run id inside a test database name, if it is one of ours. */
export function runIdOf(databaseName: string): string | null {
  const match = /^dirtest_(\d+)_/.exec(databaseName);
  return match?.[1] ?? null;
}
