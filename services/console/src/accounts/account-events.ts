import type { FastifyRequest } from 'fastify';
import type { Database } from '@directory/database';
import { MAX_USER_AGENT_LENGTH, addressRangeOf } from '../sessions/session-origin.js';
import type { SessionOrigin } from '../sessions/session.repository.js';

/** What the activity log records (docs/console.md, "Activity"). */
export const ACCOUNT_EVENT_KINDS = {
  'sign-in': 'Signed in',
  'sign-in-failed': 'Sign-in refused (wrong password or code)',
  'sign-out': 'Signed out',
  'session-ended': 'Session ended from the sessions page',
  'signed-out-everywhere': 'Signed out everywhere',
  'password-changed': 'Password changed',
  'password-reset': 'Password reset through a mailed link',
  'email-verified': 'E-mail address confirmed',
  'key-created': 'API key created',
  'key-revoked': 'API key revoked',
  'key-rolled': 'API key rolled',
  'webhook-created': 'Webhook endpoint added',
  'webhook-removed': 'Webhook endpoint removed',
  'two-factor-enabled': 'Two-factor sign-in turned on',
  'two-factor-disabled': 'Two-factor sign-in turned off',
  'recovery-code-used': 'Recovery code used to sign in',
  'account-deleted': 'Account deleted',
} as const;

export type AccountEventKind = keyof typeof ACCOUNT_EVENT_KINDS;

export type AccountEvent = {
  /** An AccountEventKind (a kind a later release added is shown as it is stored). */
  kind: string;
  detail: string | null;
  createdAt: Date;
} & SessionOrigin;

/** The browser and network of a request, kept as the sessions page keeps them (never the full address). */
export function originOf(request: FastifyRequest): SessionOrigin {
  const userAgent = request.headers['user-agent'];
  return {
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, MAX_USER_AGENT_LENGTH) : null,
    addressRange: addressRangeOf(request.ip),
  };
}

/**
 * The one write of the activity log. `detail` names what the event concerns (a key or endpoint id),
 * never a password, code, token or secret.
 */
export async function recordAccountEvent(
  db: Database,
  event: { accountId: string; kind: AccountEventKind; origin: SessionOrigin | null; detail?: string | null },
): Promise<void> {
  await db
    .insertInto('account_events')
    .values({
      account_id: event.accountId,
      kind: event.kind,
      detail: event.detail ?? null,
      user_agent: event.origin?.userAgent ?? null,
      address_range: event.origin?.addressRange ?? null,
    })
    .execute();
}

/** How many events one page of the activity log shows. */
export const ACTIVITY_PAGE_SIZE = 25;

/** One page of the account's events, newest first (`page` from 1), and whether an older page exists. */
export async function listAccountEvents(
  db: Database,
  accountId: string,
  page: number,
  pageSize = ACTIVITY_PAGE_SIZE,
): Promise<{ events: AccountEvent[]; hasOlder: boolean }> {
  const rows = await db
    .selectFrom('account_events')
    .select(['kind', 'detail', 'user_agent', 'address_range', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    events: rows.slice(0, pageSize).map((row) => ({
      kind: row.kind,
      detail: row.detail,
      createdAt: row.created_at,
      userAgent: row.user_agent,
      addressRange: row.address_range,
    })),
    hasOlder: rows.length > pageSize,
  };
}

/** How the activity page names a kind. */
export function accountEventLabel(kind: string): string {
  return Object.hasOwn(ACCOUNT_EVENT_KINDS, kind) ? ACCOUNT_EVENT_KINDS[kind as AccountEventKind] : kind;
}

/** recordAccountEvent for the account of a request, with the request's browser and network. */
export function recordRequestEvent(
  db: Database,
  request: FastifyRequest,
  accountId: string,
  kind: AccountEventKind,
  detail?: string | null,
): Promise<void> {
  return recordAccountEvent(db, { accountId, kind, origin: originOf(request), detail });
}

/** The page number of `?page=`: a whole number from 1 to 1000, else 1. */
export function activityPageOf(value: string): number {
  if (!/^\d{1,4}$/.test(value)) return 1;
  const page = Number(value);
  return page >= 1 && page <= 1000 ? page : 1;
}
