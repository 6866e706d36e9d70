import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '@directory/database';

export type ConsoleSession = {
  /** SHA-256 hex of the token: the row id, and what CSRF tokens are bound to. */
  id: string;
  accountId: string;
  email: string;
  /** Whether the account's address is verified (live keys and webhooks need it). */
  emailVerified: boolean;
  expiresAt: Date;
  lastSeenAt: Date;
};

/** Where and with what a session was started, as the sessions page shows it. */
export type SessionOrigin = { userAgent: string | null; addressRange: string | null };

/** A session as the account's sessions page lists it (no token, no token hash). */
export type SessionListing = {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
} & SessionOrigin;

/** How often a session's last-seen time is written at most: not a database write per request. */
const LAST_SEEN_PRECISION_S = 60;

const TOKEN_BYTES = 32;
export const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Starts a session; returns the token for the cookie (stored only as its hash). */
export async function createSession(
  db: Database,
  options: { accountId: string; ttlSeconds: number; origin?: SessionOrigin; now?: Date },
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
    .values({
      id: hashSessionToken(token),
      account_id: options.accountId,
      expires_at: expiresAt,
      user_agent: options.origin?.userAgent ?? null,
      address_range: options.origin?.addressRange ?? null,
    })
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
      'console_sessions.last_seen_at',
      'accounts.email',
      'accounts.email_verified_at',
    ])
    .where('console_sessions.id', '=', hashSessionToken(token))
    .where('console_sessions.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  if (row === undefined) return null;
  const session = {
    id: row.id,
    accountId: row.account_id,
    email: row.email,
    emailVerified: row.email_verified_at !== null,
    expiresAt: row.expires_at,
    lastSeenAt: row.last_seen_at,
  };
  // Clocks of this process and the database may differ a little: a minute is all the precision shown.
  if (Date.now() - session.lastSeenAt.getTime() >= LAST_SEEN_PRECISION_S * 1000)
    await touchSession(db, session);
  return session;
}

/** Moves a session's last-seen time to now, at most once a minute. */
async function touchSession(db: Database, session: ConsoleSession): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ last_seen_at: sql<Date>`now()` })
    .where('id', '=', session.id)
    .where('last_seen_at', '<', sql<Date>`now() - make_interval(secs => ${LAST_SEEN_PRECISION_S})`)
    .execute();
}

/**
 * The name a session has on the sessions page and in its sign-out form: derived from the id, but not the
 * id (the id is what the session's CSRF tokens are bound to; the page need not show it).
 */
export function sessionHandle(sessionId: string): string {
  return createHash('sha256').update(`console-session-handle\n${sessionId}`).digest('hex').slice(0, 32);
}

/** The account's live sessions, the most recently seen first. */
export async function listSessions(db: Database, accountId: string): Promise<SessionListing[]> {
  const rows = await db
    .selectFrom('console_sessions')
    .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'address_range'])
    .where('account_id', '=', accountId)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('last_seen_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    userAgent: row.user_agent,
    addressRange: row.address_range,
  }));
}

/**
 * Ends the account's sessions: all of them, all but `keep`, or `only` that one (another account's
 * session is never touched); returns how many ended.
 */
export async function deleteSessionsOfAccount(
  db: Database,
  accountId: string,
  options: { keep?: string; only?: string } = {},
): Promise<number> {
  let query = db.deleteFrom('console_sessions').where('account_id', '=', accountId);
  if (options.keep !== undefined) query = query.where('id', '!=', options.keep);
  if (options.only !== undefined) query = query.where('id', '=', options.only);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('id', '=', sessionId).execute();
}
