import { sql, type Kysely } from 'kysely';

/**
 * Times on the changes feed (API 1.3): when each change was made, and where the feed stood at a given
 * instant.
 *
 * - `places.changed_at` / `place_departures.changed_at`: the time of the transaction that moved
 *   `changed_xid` (every entry's `changedAt`). Rows changed before this migration get the row's last
 *   write (`places.updated_at`), or the migration's time for a departure: no earlier time is known.
 * - `feed_clock`: facts of the form "at `at`, every transaction with an id below `fence` had finished",
 *   written by the worker every few seconds (`recordFeedClock`). A feed started at an instant starts at
 *   the fence of the newest fact at or before it: every change committed after the instant was made by a
 *   transaction at or above that fence, so none is skipped, whatever order transactions commit in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places add column changed_at timestamptz`.execute(db);
  await sql`update places set changed_at = updated_at where changed_xid is not null`.execute(db);
  await sql`alter table place_departures add column changed_at timestamptz not null default now()`.execute(
    db,
  );

  // As in migration 0005, with the time of the removal beside its position.
  await sql`
    create or replace function places_record_departure() returns trigger language plpgsql as $$
    begin
      insert into place_departures (country, place_id, changed_xid, changed_at)
      values (old.feed_country, old.place_id,
              case when old.served then pg_current_xact_id() else old.changed_xid end,
              case when old.served then now() else coalesce(old.changed_at, now()) end)
      on conflict (country, place_id) do update
        set changed_xid = excluded.changed_xid, changed_at = excluded.changed_at;
      delete from place_departures where country = new.feed_country and place_id = new.place_id;
      return null;
    end $$`.execute(db);

  await sql`
    create table feed_clock (
      at timestamptz primary key,
      fence xid8 not null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table feed_clock`.execute(db);
  await sql`
    create or replace function places_record_departure() returns trigger language plpgsql as $$
    begin
      insert into place_departures (country, place_id, changed_xid)
      values (old.feed_country, old.place_id,
              case when old.served then pg_current_xact_id() else old.changed_xid end)
      on conflict (country, place_id) do update set changed_xid = excluded.changed_xid;
      delete from place_departures where country = new.feed_country and place_id = new.place_id;
      return null;
    end $$`.execute(db);
  await sql`alter table place_departures drop column changed_at`.execute(db);
  await sql`alter table places drop column changed_at`.execute(db);
}
