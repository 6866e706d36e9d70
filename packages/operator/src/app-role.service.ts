import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { randomBytes } from 'node:crypto';
import { MIGRATION_TABLES, appRoleStatements, scramSha256Verifier } from './app-role.js';

/** The database has not been migrated: the grants would miss every table. */
export class NotMigratedError extends Error {
  constructor() {
    super('the database is not migrated: run directory migrate first');
    this.name = 'NotMigratedError';
  }
}

/**
 * Creates `role` if it does not exist and gives it exactly the services' privileges in the connected
 * database (app-role.ts), in one transaction, and the password if one is given (sent as its SCRAM
 * verifier). `db` connects as the owner of the migrated tables.
 */
export async function grantAppRole(db: Database, role: string, password?: string): Promise<void> {
  const passwordVerifier =
    password === undefined ? undefined : scramSha256Verifier(password, randomBytes(16));
  await db.transaction().execute(async (trx) => {
    const where = await sql<{ database: string; schema: string; owner: string; migrated: boolean }>`
      select current_database() as database, current_schema as schema, current_user as owner,
             to_regclass(${MIGRATION_TABLES[0]}) is not null as migrated`.execute(trx);
    const target = where.rows[0];
    if (target === undefined || !target.migrated) throw new NotMigratedError();
    const statements = appRoleStatements({
      ...target,
      role,
      ...(passwordVerifier ? { passwordVerifier } : {}),
    });
    for (const statement of statements) await sql.raw(statement).execute(trx);
  });
}
