import { sql, type Kysely } from 'kysely';

/**
 * Webhook deliveries are scheduled from PostgreSQL, fairly across accounts (packages/webhooks,
 * schedule.ts): each pending delivery has the time of its next attempt and, while an attempt runs, a
 * lease; each endpoint remembers when it was last served (the least recently served goes first) and
 * may be stopped by an operator. An endpoint's one not-yet-attempted delivery per place takes the
 * newer versions of that place instead of a row each (a receiver needs the latest state). An operator
 * can stop an account's webhooks altogether (`directory webhooks block`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('next_attempt_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('leased_until', 'timestamptz')
    .execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('last_served_at', 'timestamptz').execute();
  // The scheduler's reads: an endpoint's due deliveries, and the attempts in flight.
  await sql`create index webhook_deliveries_due on webhook_deliveries (endpoint_id, next_attempt_at)
             where status = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_leased on webhook_deliveries (endpoint_id)
             where status = 'pending' and leased_until is not null`.execute(db);
  // At most one untouched pending delivery per endpoint and place: the dispatcher folds newer changes in.
  await sql`create unique index webhook_deliveries_coalesced on webhook_deliveries (endpoint_id, place_id)
             where status = 'pending' and attempts = 0 and leased_until is null`.execute(db);
  await db.schema
    .createTable('webhook_account_blocks')
    .addColumn('account_id', 'text', (column) =>
      column.primaryKey().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('blocked_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  // Replaced by webhook_deliveries_due (the re-enqueue of lost jobs it served is gone with the jobs).
  await sql`drop index if exists webhook_deliveries_pending`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists webhook_deliveries_pending on webhook_deliveries (created_at)
             where status = 'pending'`.execute(db);
  await db.schema.dropTable('webhook_account_blocks').execute();
  await sql`drop index if exists webhook_deliveries_coalesced`.execute(db);
  await sql`drop index if exists webhook_deliveries_leased`.execute(db);
  await sql`drop index if exists webhook_deliveries_due`.execute(db);
  await db.schema.alterTable('webhook_endpoints').dropColumn('last_served_at').execute();
  await db.schema
    .alterTable('webhook_deliveries')
    .dropColumn('next_attempt_at')
    .dropColumn('leased_until')
    .execute();
}
