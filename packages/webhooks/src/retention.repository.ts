import { sql } from 'kysely';
import type { Database } from '@directory/database';

/**
 * Claims a periodic task for `claimMs` unless another holder's claim still runs (the database's clock
 * decides). Two workers claiming at once: the second waits for the first's row, then sees its claim and
 * gets nothing. Returns whether this holder has the task.
 */
export async function claimTask(
  db: Database,
  claim: { task: string; holder: string; claimMs: number },
): Promise<boolean> {
  const result = await sql<{ holder: string }>`
    insert into maintenance_claims (task, holder, claimed_until)
    values (${claim.task}, ${claim.holder}, now() + make_interval(secs => ${claim.claimMs / 1_000}))
    on conflict (task) do update
       set holder = excluded.holder, claimed_until = excluded.claimed_until
     where maintenance_claims.claimed_until <= now()
    returning holder`.execute(db);
  return result.rows.length === 1;
}

/**
 * Records that the holder finished. The claim is kept until it ends, so no other worker repeats the
 * task within the interval.
 */
export async function finishTask(db: Database, claim: { task: string; holder: string }): Promise<void> {
  await sql`
    update maintenance_claims set last_finished_at = now()
     where task = ${claim.task} and holder = ${claim.holder}`.execute(db);
}

/** When a task last finished (null: never). */
export async function lastFinishedAt(db: Database, task: string): Promise<Date | null> {
  const row = await db
    .selectFrom('maintenance_claims')
    .select('last_finished_at')
    .where('task', '=', task)
    .executeTakeFirst();
  return row?.last_finished_at ?? null;
}

/**
 * Deletes up to `limit` final deliveries made before `before`, oldest first, in one statement (its own
 * transaction): found through the partial index of final deliveries (migration 0014) and deleted by row
 * address. Rows another transaction has locked are skipped, not waited for; they go in a later batch.
 */
export async function deleteFinalDeliveries(
  db: Database,
  batch: { before: Date; limit: number },
): Promise<number> {
  const result = await sql`
    delete from webhook_deliveries
     where ctid = any(array(
             select ctid from webhook_deliveries
              where status in ('delivered', 'failed', 'abandoned') and created_at < ${batch.before}
              order by created_at
              limit ${batch.limit}
                for update skip locked))
       and status in ('delivered', 'failed', 'abandoned')`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

export type DeliveriesTableSize = {
  /** The planner's row estimate (as of the last vacuum or analyze); null before the first one. */
  estimatedRows: number | null;
  /** Table, indexes and TOAST on disk (pg_total_relation_size). */
  bytes: number;
};

/** The deliveries table's size from the catalog: no row is read, whatever the table holds. */
export async function readDeliveriesTableSize(db: Database): Promise<DeliveriesTableSize> {
  const result = await sql<{ reltuples: number; bytes: string }>`
    select reltuples::float8 as reltuples, pg_total_relation_size(oid)::text as bytes
      from pg_class where oid = 'webhook_deliveries'::regclass`.execute(db);
  const row = result.rows[0];
  if (row === undefined) throw new Error('webhook_deliveries is missing: run npm run migrate');
  return { estimatedRows: row.reltuples < 0 ? null : Math.round(row.reltuples), bytes: Number(row.bytes) };
}
