import { sql } from 'kysely';
import type { Database } from '@directory/database';

/**
 * How many attempts may run at once, across every worker process: per endpoint (a slow receiver holds
 * at most this many) and per account (however many endpoints it has). `leaseMs` is how long a claimed
 * attempt is its worker's: one whose worker died is taken again after it.
 */
export type ScheduleLimits = {
  endpointConcurrency: number;
  accountConcurrency: number;
  leaseMs: number;
};

/** A final delivery keeps its outcome, not its body: the body is only ever needed for another attempt. */
export const SPENT_PAYLOAD = '';

/** Accounts tried per claim before giving up (each skipped one is at its concurrency limit). */
const ACCOUNTS_TRIED_PER_CLAIM = 16;

type Candidate = { endpoint_id: string; account_id: string };

/**
 * Claims the next attempt to make, fairly: among enabled endpoints with a due delivery and a free slot,
 * the one served least recently (so every endpoint takes its turn, whatever another one's backlog),
 * skipping accounts that already have `accountConcurrency` attempts in flight. The delivery is leased
 * and the endpoint's turn recorded in one short transaction; returns its id, or null when nothing may
 * start now.
 */
export async function claimDelivery(db: Database, limits: ScheduleLimits): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const skippedAccounts: string[] = [];
    for (let tried = 0; tried < ACCOUNTS_TRIED_PER_CLAIM; tried++) {
      const candidate = await nextEndpoint(trx, limits, skippedAccounts);
      if (candidate === undefined) return null;
      // The account's row serialises claims for its endpoints, so its limit holds under a race. (No key
      // update: inserting a key or an endpoint of the account, which takes a key-share lock, goes on.)
      await sql`select 1 from accounts where id = ${candidate.account_id} for no key update`.execute(trx);
      const inFlight = await sql<{ count: string }>`
        select count(*) as count
          from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
         where e.account_id = ${candidate.account_id}
           and d.status = 'pending' and d.leased_until >= now()`.execute(trx);
      if (Number(inFlight.rows[0]?.count ?? 0) >= limits.accountConcurrency) {
        skippedAccounts.push(candidate.account_id);
        continue;
      }
      const delivery = await sql<{ id: string }>`
        select id from webhook_deliveries
         where endpoint_id = ${candidate.endpoint_id} and status = 'pending' and next_attempt_at <= now()
           and (leased_until is null or leased_until < now())
         order by next_attempt_at, created_at
         limit 1
         for update skip locked`.execute(trx);
      const id = delivery.rows[0]?.id;
      if (id === undefined) return null;
      await sql`
        update webhook_deliveries
           set leased_until = now() + make_interval(secs => ${limits.leaseMs / 1000})
         where id = ${id}`.execute(trx);
      await sql`update webhook_endpoints set last_served_at = now() where id = ${candidate.endpoint_id}`.execute(
        trx,
      );
      return id;
    }
    return null;
  });
}

/** The enabled endpoint served least recently that has a due delivery and a free slot (locked), if any. */
async function nextEndpoint(
  db: Database,
  limits: ScheduleLimits,
  skippedAccounts: ReadonlyArray<string>,
): Promise<Candidate | undefined> {
  const result = await sql<Candidate>`
    select e.id as endpoint_id, e.account_id
      from webhook_endpoints e
     where e.enabled
       and e.account_id <> all(${sql.val([...skippedAccounts])}::text[])
       and not exists (select 1 from webhook_account_blocks b where b.account_id = e.account_id)
       and exists (select 1 from webhook_deliveries d
                    where d.endpoint_id = e.id and d.status = 'pending' and d.next_attempt_at <= now()
                      and (d.leased_until is null or d.leased_until < now()))
       and (select count(*) from webhook_deliveries d
             where d.endpoint_id = e.id and d.status = 'pending'
               and d.leased_until >= now()) < ${limits.endpointConcurrency}
     order by e.last_served_at asc nulls first, e.id
     limit 1
     for update of e skip locked`.execute(db);
  return result.rows[0];
}

/** Abandons an endpoint's pending deliveries (it was disabled): they keep their outcome, not their body. */
export async function abandonPending(db: Database, endpointId: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'abandoned', payload: SPENT_PAYLOAD })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}
