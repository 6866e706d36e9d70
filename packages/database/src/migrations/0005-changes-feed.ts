import { sql, type Kysely } from 'kysely';

/**
 * The changes feed (`GET /api/v1/changes`): every record that became served, changed or stopped being
 * served, per dataset country, in an order a consumer can resume from.
 *
 * - `places.changed_xid` is the id of the transaction that last changed what a consumer sees of the
 *   place (served or not, the public doctor, the dataset). Readers only take rows below the xmin of
 *   their snapshot: every transaction below it has finished, so no row can later appear behind a
 *   reader's position even though transactions commit out of id order.
 * - `places.feed_country` is the dataset the place was last served in, kept when it becomes a tombstone
 *   so that dataset's consumers see the removal; null until first served (never-served places are noise).
 * - `place_departures` remembers, per dataset a place left for another one, the position of its
 *   removal there: the places row now shows under its new dataset, and the old one's consumers must
 *   still learn it is gone. A trigger writes it, so every writer of `places` keeps it right.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places add column changed_xid xid8, add column feed_country text`.execute(db);
  // Places served today enter the feed at the migrating transaction (a consumer's first full read).
  await sql`
    update places set changed_xid = pg_current_xact_id(), feed_country = document ->> 'country'
    where served`.execute(db);
  await sql`
    create index places_changes_feed on places (feed_country, changed_xid, place_id)
    where feed_country is not null`.execute(db);

  await sql`
    create table place_departures (
      country text not null,
      place_id text not null,
      changed_xid xid8 not null,
      primary key (country, place_id))`.execute(db);
  await sql`
    create index place_departures_feed on place_departures (country, changed_xid, place_id)`.execute(db);

  // A place served in one dataset and then in another: its old dataset gets a removal. At this
  // transaction when it was served there until now; at the change that already removed it otherwise
  // (that position is where the removal was; the row it was read from now lists under the new dataset,
  // so keeping the position delivers it exactly once). Back in a dataset it left, the places row
  // supersedes the departure.
  await sql`
    create function places_record_departure() returns trigger language plpgsql as $$
    begin
      insert into place_departures (country, place_id, changed_xid)
      values (old.feed_country, old.place_id,
              case when old.served then pg_current_xact_id() else old.changed_xid end)
      on conflict (country, place_id) do update set changed_xid = excluded.changed_xid;
      delete from place_departures where country = new.feed_country and place_id = new.place_id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger places_departure after update of feed_country on places
    for each row when (old.feed_country is not null and old.feed_country is distinct from new.feed_country)
    execute function places_record_departure()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger places_departure on places`.execute(db);
  await sql`drop function places_record_departure()`.execute(db);
  await sql`drop table place_departures`.execute(db);
  await sql`drop index places_changes_feed`.execute(db);
  await sql`alter table places drop column feed_country, drop column changed_xid`.execute(db);
}
