import { sql, type Kysely } from 'kysely';

/**
 * A new changes-feed consumer starts from a snapshot: the places served in its dataset, in place-id order,
 * a page at a time. This index holds exactly those rows in that order, so each page reads its own rows
 * instead of walking every place of every dataset by id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index places_feed_snapshot on places (feed_country, place_id) where served`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index places_feed_snapshot`.execute(db);
}
