import { sql, type Kysely } from 'kysely';

/**
 * Webhook deliveries are pruned once final (packages/webhooks, retention.ts):
 *
 * - `webhook_deliveries_final_created`: the final deliveries by age, so a prune finds the oldest ones
 *   without reading the pending ones or the table. Its predicate names the final statuses rather than
 *   "not pending": a status added later is never pruned until it is listed here and in the prune.
 * - `maintenance_claims`: one row per periodic task that only one worker should run at a time (the
 *   prune). A claim is a lease in the database's clock, not a session lock, so it works behind a
 *   transaction-mode pooler and lapses by itself when the worker holding it dies.
 *
 * The index is built inside the migration's transaction, which holds off writes to the table while it
 * builds (seconds for millions of rows); apply it when deliveries can wait that long.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index webhook_deliveries_final_created on webhook_deliveries (created_at)
             where status in ('delivered', 'failed', 'abandoned')`.execute(db);
  await sql`
    create table maintenance_claims (
      task text primary key,
      holder text not null,
      claimed_until timestamptz not null,
      last_finished_at timestamptz)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table maintenance_claims`.execute(db);
  await sql`drop index if exists webhook_deliveries_final_created`.execute(db);
}
