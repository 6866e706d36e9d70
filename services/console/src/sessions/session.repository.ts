import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '@directory/database';

export type ConsoleSession = {
  /** SHA-256 hex of the token: the row id, and what CSRF tokens are bound to. */
  id: string;
  accountId: string;
  email: string;
  expiresAt: Date;
};

const TOKEN_BYTES = 32;
export const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Starts a session; returns the token for the cookie (stored only as its hash). */
export async function createSession(
  db: Database,
  options: { accountId: string; ttlSeconds: number; now?: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const expiresAt = new Date((options.now ?? new Date()).getTime() + options.ttlSeconds * 1000);
  // Housekeeping on the way in: this account's expired sessions are of no further use.
  await db
    .deleteFrom('console_sessions')
    .where('account_id', '=', options.accountId)
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
  await db
    .insertInto('console_sessions')
    .values({ id: hashSessionToken(token), account_id: options.accountId, expires_at: expiresAt })
    .execute();
  return { token, expiresAt };
}

/** The live session a token belongs to, or null (unknown, malformed or expired). */
export async function findSession(db: Database, token: string): Promise<ConsoleSession | null> {
  if (!SESSION_TOKEN_PATTERN.test(token)) return null;
  const row = await db
    .selectFrom('console_sessions')
    .innerJoin('accounts', 'accounts.id', 'console_sessions.account_id')
    .select([
      'console_sessions.id',
      'console_sessions.account_id',
      'console_sessions.expires_at',
      'accounts.email',
    ])
    .where('console_sessions.id', '=', hashSessionToken(token))
    .where('console_sessions.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row === undefined
    ? null
    : { id: row.id, accountId: row.account_id, email: row.email, expiresAt: row.expires_at };
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('id', '=', sessionId).execute();
}
