import { sql, type Kysely } from 'kysely';

/**
 * `places.sweep_claimed_until`: a worker's sweeper claims a page of lagging places until this time
 * before refolding them, so several workers share the lagging places instead of each refolding all of
 * them. A claim is a lease, not a lock held by a session: a worker that dies mid-page leaves it to lapse,
 * and another worker's sweep takes the places then. Null: not claimed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places add column sweep_claimed_until timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places drop column sweep_claimed_until`.execute(db);
}
