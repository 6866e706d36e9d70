import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { isAccountEmail } from '@directory/domain';
import type { KeyVouches } from './key-vouches.js';

/**
 * Deleting an account, for the console (the holder, after re-authenticating) and the operator CLI
 * (`directory accounts delete`): one implementation.
 *
 * - every key of the account is revoked and barred at once: each is barred in Redis before the rows are
 *   written (no process answers for it from memory again; a failed bar writes nothing) and again after;
 *   key names are erased;
 * - its webhook endpoints are removed (their deliveries with them) and any operator block too;
 * - sessions, mailed-link tokens, two-factor secret and recovery codes are deleted;
 * - the account row stays, as a tombstone without e-mail, password or secret (`deleted_at` set), so the
 *   keys' daily usage counts remain as anonymous counts; activity rows keep their kind and time only.
 */
export type AccountErasure = {
  accountId: string;
  /** The address the account had (the console mails it a confirmation); never stored after. */
  email: string;
  keys: number;
  webhooks: number;
  sessions: number;
};

/** What erasing the account would touch, without changing anything (`--dry-run`), or null if unknown. */
export async function planAccountErasure(db: Database, accountId: string): Promise<AccountErasure | null> {
  const account = await db
    .selectFrom('accounts')
    .select(['id', 'email'])
    .where('id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (account === undefined) return null;
  const count = async (table: 'api_keys' | 'webhook_endpoints' | 'console_sessions') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select(sql<string>`count(*)`.as('count'))
          .where('account_id', '=', accountId)
          .executeTakeFirstOrThrow()
      ).count,
    );
  return {
    accountId,
    email: account.email,
    keys: await count('api_keys'),
    webhooks: await count('webhook_endpoints'),
    sessions: await count('console_sessions'),
  };
}

/** Erases the account (see AccountErasure); null when there is no such account, or it is deleted already. */
export async function eraseAccount(
  db: Database,
  vouches: KeyVouches,
  accountId: string,
): Promise<AccountErasure | null> {
  const plan = await planAccountErasure(db, accountId);
  if (plan === null) return null;
  const keyIds = (
    await db.selectFrom('api_keys').select('id').where('account_id', '=', accountId).execute()
  ).map((row) => row.id);
  // Before the write: no remembered copy of any of the keys is used again (a failed bar throws here).
  for (const id of keyIds) await vouches.bar(id);
  const erased = await db.transaction().execute(async (trx) => {
    const locked = await trx
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', accountId)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (locked === undefined) return false;
    await trx
      .updateTable('api_keys')
      .set({ revoked_at: sql<Date>`least(coalesce(revoked_at, now()), now())`, name: 'deleted' })
      .where('account_id', '=', accountId)
      .execute();
    const webhooks = await trx
      .deleteFrom('webhook_endpoints')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    await trx.deleteFrom('webhook_account_blocks').where('account_id', '=', accountId).execute();
    const sessions = await trx
      .deleteFrom('console_sessions')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    await trx.deleteFrom('account_tokens').where('account_id', '=', accountId).execute();
    await trx.deleteFrom('account_recovery_codes').where('account_id', '=', accountId).execute();
    await trx
      .updateTable('account_events')
      .set({ user_agent: null, address_range: null, detail: null })
      .where('account_id', '=', accountId)
      .execute();
    await trx
      .updateTable('accounts')
      .set({
        // Not an address (isAccountEmail refuses it): no sign-in or reset can name it; unique per account.
        email: `deleted:${accountId}`,
        password_hash: '!',
        email_verified_at: null,
        totp_secret: null,
        totp_pending_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
        deleted_at: sql<Date>`now()`,
      })
      .where('id', '=', accountId)
      .execute();
    await trx
      .insertInto('account_events')
      .values({ account_id: accountId, kind: 'account-deleted' })
      .execute();
    plan.webhooks = Number(webhooks.numDeletedRows);
    plan.sessions = Number(sessions.numDeletedRows);
    return true;
  });
  // After the write: reads that began before it committed vouch for nothing.
  for (const id of keyIds) await vouches.bar(id);
  return erased ? plan : null;
}

/** The account an operator names: an e-mail address (any case) or an account id; null if none. */
export async function findAccountToErase(db: Database, emailOrId: string): Promise<string | null> {
  const value = emailOrId.trim();
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where((where) =>
      isAccountEmail(value)
        ? where(sql<string>`lower(email)`, '=', value.toLowerCase())
        : where('id', '=', value),
    )
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.id ?? null;
}
