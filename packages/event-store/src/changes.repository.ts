import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { readMergeForwards } from './merges.repository.js';
import {
  changesToRead,
  feedPartOf,
  snapshotHorizon,
  type CountryCode,
  type Doctor,
  type DoctorExtras,
  type FeedCursor,
  type FeedPosition,
  type FeedRead,
  type FeedRow,
  type ListedPlace,
  type SnapshotHorizon,
} from '@directory/domain';

/**
 * Reads a dataset's changes feed (migration 0005) after `after`, in (transaction id, place id) order:
 * the places whose served state in this dataset changed, and the places that left it for another one.
 * With `shown`, the changes a consumer's snapshot already showed are left out (see `readSnapshotHorizon`).
 *
 * The fence: only rows written by transactions below the xmin of this statement's snapshot are read.
 * Every transaction below xmin has finished, and every transaction still running or yet to start has
 * an id at or above it, so no row can later appear at a position a reader has already passed, whatever
 * order transactions commit in. A place changed again after a reader passed it moves to a later
 * position, so the reader gets its newest state again. The feed trails the oldest running transaction.
 */
export async function readChanges(
  db: Database,
  options: { country: CountryCode; after: FeedPosition; limit: number; shown?: SnapshotHorizon | null },
): Promise<FeedRow[]> {
  const { country, after, limit, shown = null } = options;
  // Not shown by the snapshot: made after its newest change, or by a transaction running when it was taken.
  const notShown =
    shown === null
      ? sql``
      : sql`and (changed_xid > ${shown.upTo}::xid8 or changed_xid = any(${shown.running}::xid8[]))`;
  const result = await sql<{
    place_id: string;
    xid: string;
    served: boolean;
    doctor: Doctor | null;
    version: number;
    changed_at: Date;
    merged: boolean;
  }>`
    with fence as (select pg_snapshot_xmin(pg_current_snapshot()) as below)
    select place_id, changed_xid::text as xid, served, doctor, version, changed_at, merged
    from (
      (select place_id, changed_xid, served, document -> 'doctor' as doctor, state_version as version,
              changed_at, merged_into is not null as merged
         from places
        where feed_country = ${country}
          and (changed_xid, place_id) > (${after.xid}::xid8, ${after.placeId})
          and changed_xid < (select below from fence)
          ${notShown}
        order by changed_xid, place_id
        limit ${limit})
      union all
      -- A departure's version is its place's: the move to another dataset is a state of the place.
      (select place_id, changed_xid, false, null::json,
              (select state_version from places where places.place_id = place_departures.place_id),
              changed_at, false
         from place_departures
        where country = ${country}
          and (changed_xid, place_id) > (${after.xid}::xid8, ${after.placeId})
          and changed_xid < (select below from fence)
          ${notShown}
        order by changed_xid, place_id
        limit ${limit})
    ) as feed
    order by changed_xid, place_id
    limit ${limit}`.execute(db);
  // Chains are followed only for the page's merged-away records: none, and no second query, in most pages.
  const mergedIds = result.rows.filter((row) => !row.served && row.merged).map((row) => row.place_id);
  const forwards = await readMergeForwards(db, mergedIds);
  return result.rows.map((row) => ({
    position: { xid: row.xid, placeId: row.place_id },
    served: row.served,
    doctor: row.served ? row.doctor : null,
    version: row.version,
    changedAt: row.changed_at.toISOString(),
    mergedInto: row.served ? null : (forwards.get(row.place_id)?.mergedInto ?? null),
  }));
}

/**
 * A new consumer's snapshot of a dataset, taken on its first read: the newest change the dataset holds
 * (`upTo`, over its places and its departures) and the transactions still running, read in one statement
 * so both come from the same database snapshot. Every change by a transaction up to `upTo` and not
 * running has finished: later reads of the dataset (the snapshot's pages) see it. Anything a later
 * transaction, or a running one, changes has another transaction id, which the feed after the snapshot
 * delivers (`readChanges` with `shown`). So a record that stopped being served before the consumer
 * started never reaches it, and one it listed and that stops being served later comes as a removal.
 */
export async function readSnapshotHorizon(db: Database, country: CountryCode): Promise<SnapshotHorizon> {
  const result = await sql<{ up_to: string; running: string[] }>`
    with newest as (
      select greatest(
        (select changed_xid from places where feed_country = ${country}
          order by changed_xid desc limit 1),
        (select changed_xid from place_departures where country = ${country}
          order by changed_xid desc limit 1)) as xid)
    select coalesce((select xid from newest), '0'::xid8)::text as up_to,
           array(select running::text from pg_snapshot_xip(pg_current_snapshot()) as running
                  where running <= (select xid from newest) order by running) as running`.execute(db);
  const row = result.rows[0];
  return snapshotHorizon(row?.up_to ?? '0', row?.running ?? []);
}

/**
 * A page of a snapshot: the places served in the dataset after `after`, in place-id order (index
 * `places_feed_snapshot`, migration 0009), whose current state the snapshot shows. A place changed since
 * (or by a transaction running then) is left to the feed after the snapshot, which has its newest state;
 * listing it here too would send the same state twice.
 */
export async function readListedPlaces(
  db: Database,
  options: { country: CountryCode; horizon: SnapshotHorizon; after: string; limit: number },
): Promise<ListedPlace[]> {
  const { country, horizon, after, limit } = options;
  const result = await sql<{ place_id: string; doctor: Doctor }>`
    select place_id, document -> 'doctor' as doctor
    from places
    where served and feed_country = ${country} and place_id > ${after}
      and changed_xid <= ${horizon.upTo}::xid8
      and changed_xid <> all(${horizon.running}::xid8[])
    order by place_id
    limit ${limit}`.execute(db);
  return result.rows.map((row) => ({ placeId: row.place_id, doctor: row.doctor }));
}

/** What a page of `GET /api/v1/changes` from `from` needs (`toChangesPage` makes the page of it). */
export async function readFeedPage(
  db: Database,
  options: { country: CountryCode; from: FeedCursor; limit: number },
): Promise<FeedRead> {
  const { country, from, limit } = options;
  // One row more than the page tells whether more follow.
  const listed =
    from.kind === 'snapshot'
      ? await readListedPlaces(db, { country, horizon: from.horizon, after: from.after, limit: limit + 1 })
      : [];
  const wanted = changesToRead(listed.length, limit);
  if (wanted === 0) return { listed, changes: [] };
  const feed = feedPartOf(from);
  const changes = await readChanges(db, { country, after: feed.position, shown: feed.shown, limit: wanted });
  return { listed, changes };
}

/** A place's current state as the feed's upserts show it, with its extras and its state version. */
export type ServedPlaceRecord = { placeId: string; doctor: Doctor; extras: DoctorExtras; version: number };

/**
 * The places of `placeIds` served now in the dataset, read from the table the feed reads (not the
 * search index, which may trail it): what a feed entry's record is at its newest state. A place absent
 * from the answer is not served there now; the feed delivers its removal.
 */
export async function readServedPlaces(
  db: Database,
  options: { country: CountryCode; placeIds: ReadonlyArray<string> },
): Promise<ServedPlaceRecord[]> {
  if (options.placeIds.length === 0) return [];
  const result = await sql<{ place_id: string; doctor: Doctor; extras: DoctorExtras; version: number }>`
    select place_id, document -> 'doctor' as doctor, document -> 'extras' as extras,
           state_version as version
    from places
    where served and feed_country = ${options.country} and place_id = any(${[...options.placeIds]}::text[])
  `.execute(db);
  return result.rows.map((row) => ({
    placeId: row.place_id,
    doctor: row.doctor,
    extras: row.extras,
    version: row.version,
  }));
}
