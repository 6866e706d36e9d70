import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { isAccountEmail } from '@directory/domain';

/**
 * The accounts table, for everyone who reads or writes it: the console (sign-up, sign-in), the
 * operator CLI (`npm run keys`) and the key store (which locks an account while changing its keys).
 * An email names one account whatever its case: the unique index is on lower(email).
 */

export type AccountCredentials = { id: string; email: string; passwordHash: string };

export class AccountNotFoundError extends Error {
  constructor(accountId: string) {
    super(`no account with id ${accountId}`);
    this.name = 'AccountNotFoundError';
  }
}

// A password hash no password verifies against: operator-created accounts cannot sign in until the
// console sets a real password.
const UNUSABLE_PASSWORD_HASH = '!';

/** Inserts an account; null when the email (case-insensitively) already has one. */
export async function insertAccount(
  db: Database,
  account: { email: string; passwordHash: string },
): Promise<{ id: string } | null> {
  const row = await db
    .insertInto('accounts')
    .values({ id: randomUUID(), email: account.email, password_hash: account.passwordHash })
    // A concurrent insert of the same address loses quietly.
    .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ?? null;
}

/** The account id for an email, creating the account (unable to sign in) if it does not exist. */
export async function ensureAccount(db: Database, email: string): Promise<{ id: string; created: boolean }> {
  const normalized = email.trim();
  // The console's rule, so an operator makes no account the console would refuse as an email.
  if (!isAccountEmail(normalized))
    throw new Error('account must be an email address like name@example.com (at most 254 characters)');
  const inserted = await insertAccount(db, { email: normalized, passwordHash: UNUSABLE_PASSWORD_HASH });
  if (inserted !== null) return { id: inserted.id, created: true };
  const existing = await db
    .selectFrom('accounts')
    .select('id')
    .where(sql<string>`lower(email)`, '=', normalized.toLowerCase())
    .executeTakeFirstOrThrow();
  return { id: existing.id, created: false };
}

/** The account id for an email, or null. */
export async function findAccountByEmail(db: Database, email: string): Promise<string | null> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return row?.id ?? null;
}

/** What signing in checks: the account's id, email and password hash, or null. */
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

/**
 * Locks an account's row until the transaction ends, so changes to that account's keys are made one
 * at a time; an unknown id is an AccountNotFoundError.
 */
export async function lockAccount(trx: Database, accountId: string): Promise<void> {
  const account = await trx
    .selectFrom('accounts')
    .select('id')
    .where('id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
  if (account === undefined) throw new AccountNotFoundError(accountId);
}

/** The credentials of an account by id, or null. */
export async function findAccountById(db: Database, accountId: string): Promise<AccountCredentials | null> {
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'email', 'password_hash'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row === undefined ? null : { id: row.id, email: row.email, passwordHash: row.password_hash };
}

/**
 * Records that the holder of `email` proved they read it (a verification or reset link was followed),
 * if that is still the account's address; true when the account's address is (now) verified.
 */
export async function markEmailVerified(db: Database, accountId: string, email: string): Promise<boolean> {
  const row = await db
    .updateTable('accounts')
    .set({ email_verified_at: sql<Date>`coalesce(email_verified_at, now())` })
    .where('id', '=', accountId)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Replaces an account's password hash; false when there is no such account. */
export async function setPasswordHash(
  db: Database,
  accountId: string,
  passwordHash: string,
): Promise<boolean> {
  const result = await db
    .updateTable('accounts')
    .set({ password_hash: passwordHash })
    .where('id', '=', accountId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
