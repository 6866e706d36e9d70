import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '@directory/database';

export type AccountCredentials = { id: string; email: string; passwordHash: string };

/** Inserts an account; null when the email (case-insensitively) already has one. */
export async function insertAccount(
  db: Database,
  account: { email: string; passwordHash: string },
): Promise<{ id: string } | null> {
  const row = await db
    .insertInto('accounts')
    .values({ id: randomUUID(), email: account.email, password_hash: account.passwordHash })
    .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ?? null;
}

export async function findAccountCredentials(
  db: Database,
  email: string,
): Promise<AccountCredentials | null> {
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'email', 'password_hash'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return row === undefined ? null : { id: row.id, email: row.email, passwordHash: row.password_hash };
}
