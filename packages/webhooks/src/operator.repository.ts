import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { abandonPending } from './schedule.js';

/** One endpoint as an operator sees it: whose, where, and how far behind. */
export type OperatorEndpointView = {
  id: string;
  accountEmail: string;
  url: string;
  countries: string[];
  enabled: boolean;
  disabledReason: string | null;
  /** Deliveries waiting for an attempt (or between attempts). */
  pending: number;
  /** Why an operator stopped the account's webhooks, or null. */
  blockedReason: string | null;
};

/** Every endpoint (or one account's), the most backlogged first. */
export async function listEndpointsForOperator(
  db: Database,
  filter: { accountEmail?: string } = {},
): Promise<OperatorEndpointView[]> {
  const result = await sql<{
    id: string;
    email: string;
    url: string;
    countries: string[];
    enabled: boolean;
    disabled_reason: string | null;
    pending: string;
    blocked_reason: string | null;
  }>`
    select e.id, a.email, e.url, e.countries, e.enabled, e.disabled_reason,
           (select count(*) from webhook_deliveries d where d.endpoint_id = e.id and d.status = 'pending') as pending,
           b.reason as blocked_reason
      from webhook_endpoints e
      join accounts a on a.id = e.account_id
      left join webhook_account_blocks b on b.account_id = e.account_id
     where ${filter.accountEmail === undefined ? sql`true` : sql`lower(a.email) = lower(${filter.accountEmail})`}
     order by pending desc, a.email, e.created_at`.execute(db);
  return result.rows.map((row) => ({
    id: row.id,
    accountEmail: row.email,
    url: row.url,
    countries: row.countries,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    pending: Number(row.pending),
    blockedReason: row.blocked_reason,
  }));
}

/**
 * Disables one endpoint as an operator and abandons what waited for it. Its owner may enable it again
 * in the console; to stop an account for good, block it. Returns false for an unknown id.
 */
export async function disableEndpointByOperator(
  db: Database,
  endpointId: string,
  reason: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const updated = await sql<{ id: string }>`
      update webhook_endpoints
         set enabled = false, disabled_reason = ${`disabled by an operator: ${reason}`}, updated_at = now()
       where id::text = ${endpointId}
      returning id`.execute(trx);
    const id = updated.rows[0]?.id;
    if (id === undefined) return false;
    await abandonPending(trx, id);
    return true;
  });
}

/** The account of an email (case-insensitive), or null. */
async function accountIdOf(db: Database, email: string): Promise<string | null> {
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return account?.id ?? null;
}

/**
 * Stops every webhook of an account: nothing more is made or sent for its endpoints (whatever it
 * enables in the console) and what waited is abandoned, until `unblockAccount`. Returns false for an
 * unknown email.
 */
export async function blockAccount(db: Database, email: string, reason: string): Promise<boolean> {
  const accountId = await accountIdOf(db, email);
  if (accountId === null) return false;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_account_blocks')
      .values({ account_id: accountId, reason })
      .onConflict((conflict) => conflict.column('account_id').doUpdateSet({ reason }))
      .execute();
    const endpoints = await trx
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    for (const endpoint of endpoints) await abandonPending(trx, endpoint.id);
  });
  return true;
}

/** Lets an account's webhooks flow again (changes from now on). Returns false when it was not blocked. */
export async function unblockAccount(db: Database, email: string): Promise<boolean> {
  const accountId = await accountIdOf(db, email);
  if (accountId === null) return false;
  const result = await db
    .deleteFrom('webhook_account_blocks')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
