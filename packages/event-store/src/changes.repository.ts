import { sql } from 'kysely';
import type { Database } from '@directory/database';
import type { CountryCode, Doctor, FeedPosition, FeedRow } from '@directory/domain';

/**
 * Reads a dataset's changes feed (migration 0005) after `after`, in (transaction id, place id) order:
 * the places whose served state in this dataset changed, and the places that left it for another one.
 *
 * The fence: only rows written by transactions below the xmin of this statement's snapshot are read.
 * Every transaction below xmin has finished, and every transaction still running or yet to start has
 * an id at or above it, so no row can later appear at a position a reader has already passed, whatever
 * order transactions commit in. A place changed again after a reader passed it moves to a later
 * position, so the reader gets its newest state again. The feed trails the oldest running transaction.
 */
export async function readChanges(
  db: Database,
  options: { country: CountryCode; after: FeedPosition; limit: number },
): Promise<FeedRow[]> {
  const { country, after, limit } = options;
  const result = await sql<{
    place_id: string;
    xid: string;
    served: boolean;
    doctor: Doctor | null;
  }>`
    with fence as (select pg_snapshot_xmin(pg_current_snapshot()) as below)
    select place_id, changed_xid::text as xid, served, doctor
    from (
      (select place_id, changed_xid, served, document -> 'doctor' as doctor
         from places
        where feed_country = ${country}
          and (changed_xid, place_id) > (${after.xid}::xid8, ${after.placeId})
          and changed_xid < (select below from fence)
        order by changed_xid, place_id
        limit ${limit})
      union all
      (select place_id, changed_xid, false, null::json
         from place_departures
        where country = ${country}
          and (changed_xid, place_id) > (${after.xid}::xid8, ${after.placeId})
          and changed_xid < (select below from fence)
        order by changed_xid, place_id
        limit ${limit})
    ) as feed
    order by changed_xid, place_id
    limit ${limit}`.execute(db);
  return result.rows.map((row) => ({
    position: { xid: row.xid, placeId: row.place_id },
    served: row.served,
    doctor: row.served ? row.doctor : null,
  }));
}
