import { sql } from 'kysely';
import type { Database } from '@directory/database';
import type { CountryCode, Doctor, DoctorExtras, ListedPlace, SnapshotHorizon } from '@directory/domain';
import { readListedPlaces, readSnapshotHorizon, type ServedPlaceRecord } from './changes.repository.js';

/**
 * One export of a dataset (`GET /api/v1/exports/{country}`): its horizon, then its places page by page,
 * each page ONE statement of its own (its own short transaction, a pool connection for as long as the
 * page takes). No transaction stays open while the client reads, however slowly: a long snapshot would
 * hold back vacuum for the whole database for as long as the slowest client.
 *
 * Every page is read at the horizon (`readListedPlaces`), as a resumed export always was: a place is
 * listed when the horizon shows its current state; one changed since (or by a transaction running
 * then) is left out, and `feedAfterSnapshot(horizon)` delivers its newest state. So the export and the
 * feed from its cursor together give every record exactly once in its newest state, whichever page a
 * change lands before.
 *
 * Read from the store, not from an Elasticsearch point in time: the index lags the store and holds no
 * feed position, so only the store's horizon pairs exactly with a changes-feed cursor.
 */
export type StoreExport = {
  horizon: SnapshotHorizon;
  /** The places after `after`, in place-id order, `pageSize` at a time, each page read when asked for. */
  pages: (after: string, pageSize: number) => AsyncGenerator<ListedPlace[], void, undefined>;
};

/**
 * Fixes an export's horizon: the dataset's own (a new export, one statement), or `resumed` (the horizon
 * of the export a client continues; nothing is read).
 */
export async function openExport(
  db: Database,
  options: { country: CountryCode; resumed?: SnapshotHorizon },
): Promise<StoreExport> {
  const { country, resumed } = options;
  const horizon = resumed ?? (await readSnapshotHorizon(db, country));
  async function* pages(after: string, pageSize: number): AsyncGenerator<ListedPlace[], void, undefined> {
    let from = after;
    for (;;) {
      const page = await readListedPlaces(db, { country, horizon, after: from, limit: pageSize });
      if (page.length > 0) yield page;
      const last = page[page.length - 1];
      if (last === undefined || page.length < pageSize) return;
      from = last.placeId;
    }
  }
  return { horizon, pages };
}

/**
 * A FHIR Bulk Data export's snapshot (`GET /fhir/R4/$export`): the export's horizon, and the store's
 * clock read just before it (`transactionTime`, to the millisecond, rounded down). Every change the
 * horizon does not show was made by a transaction not finished when the clock was read, so the feed
 * started at that instant (`_history?_since=`, whose fence is that of a clock fact at or before it)
 * delivers it: the snapshot and that feed together miss nothing.
 */
export async function openRecordSnapshot(
  db: Database,
  country: CountryCode,
): Promise<{ horizon: SnapshotHorizon; transactionTime: Date }> {
  const clock = await sql<{ at: Date }>`select date_trunc('milliseconds', clock_timestamp()) as at`.execute(
    db,
  );
  const at = clock.rows[0]?.at;
  if (at === undefined) throw new Error('the store did not answer its clock');
  return { horizon: await readSnapshotHorizon(db, country), transactionTime: at };
}

/**
 * Which records of a snapshot: those the horizon shows, with ids of at most `maxIdLength` characters
 * (the FHIR ids' limit: a longer one has no FHIR resource), last updated at or after `since`.
 */
export type RecordSnapshotScope = {
  country: CountryCode;
  horizon: SnapshotHorizon;
  maxIdLength: number;
  since?: Date;
};

// The places of a scope: readListedPlaces's, and `since` on the record's updatedAt (a record without
// one counts as current, as the instance history has it).
function scopeCondition(scope: RecordSnapshotScope) {
  const { country, horizon, since } = scope;
  return sql`served and feed_country = ${country}
      and changed_xid <= ${horizon.upTo}::xid8
      and changed_xid <> all(${horizon.running}::xid8[])
      and length(place_id) <= ${scope.maxIdLength}
      ${
        since === undefined
          ? sql``
          : sql`and (document -> 'extras' ->> 'updatedAt' is null
                     or (document -> 'extras' ->> 'updatedAt')::timestamptz >= ${since})`
      }`;
}

/** How many records a snapshot's scope lists (each is one resource of every type). */
export async function countSnapshotRecords(db: Database, scope: RecordSnapshotScope): Promise<number> {
  const result = await sql<{ count: string }>`
    select count(*)::text as count from places where ${scopeCondition(scope)}`.execute(db);
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * A snapshot's records in place-id order, `pageSize` at a time, each page its own statement (as an
 * export's pages): with their extras and state version, what the FHIR mapping needs.
 */
export async function* snapshotRecordPages(
  db: Database,
  scope: RecordSnapshotScope,
  pageSize: number,
): AsyncGenerator<ServedPlaceRecord[], void, undefined> {
  let after = '';
  for (;;) {
    const result = await sql<{ place_id: string; doctor: Doctor; extras: DoctorExtras; version: number }>`
      select place_id, document -> 'doctor' as doctor, document -> 'extras' as extras,
             state_version as version
      from places
      where ${scopeCondition(scope)} and place_id > ${after}
      order by place_id
      limit ${pageSize}`.execute(db);
    const page = result.rows.map((row) => ({
      placeId: row.place_id,
      doctor: row.doctor,
      extras: row.extras,
      version: row.version,
    }));
    if (page.length > 0) yield page;
    const last = page[page.length - 1];
    if (last === undefined || page.length < pageSize) return;
    after = last.placeId;
  }
}
