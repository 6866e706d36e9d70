import { sql, type Kysely, type QueryCreator, type RawBuilder } from 'kysely';
import type { Database } from '@directory/database';
import { doctorDigest, documentDigest, type PlaceProjection } from '@directory/domain';
import { columnOf, jsonColumnOf } from './row-binding.js';

/** A stored index document as text, ready to be sent to the index as it is. */
export type StoredProjection = { placeId: string; version: number; documentJson: string };

/**
 * A folded state with its document already serialized, when the caller sends the same text to the index
 * too (a replay): serialized once for both.
 */
export type SerializedPlaceState = PlaceProjection & { documentJson: string };

/** A state as it is written: its document as text, and that text's digest (migration 0022). */
type StateToWrite = SerializedPlaceState & { documentDigest: string };

function toWrite(row: PlaceProjection | SerializedPlaceState): StateToWrite {
  // A serialized document is sent as it is, so a replay's text is not serialized again.
  const documentJson = 'documentJson' in row ? row.documentJson : JSON.stringify(row.document);
  return { ...row, documentJson, documentDigest: documentDigest(documentJson) };
}

/**
 * Saves folded states. A row only moves forward: when two workers refold the same place concurrently,
 * the one that saw more of the stream (higher version) wins, whatever order their writes land in.
 */
export async function savePlaceStates(
  db: Database,
  rows: ReadonlyArray<PlaceProjection | SerializedPlaceState>,
): Promise<void> {
  await upsertStates(db, rows.map(toWrite), 'newer');
}

/**
 * Replay writes (`reindex --replay`): overwrite states refolded with a changed fold even at the same
 * version (an identical document is left as it is), but never replace a row a worker has meanwhile moved
 * to a newer version. `updated_at` keeps its value: it marks the writes a running reindex must catch up,
 * and the replay sends the same document to the new index in the same pass, so its own writes are not
 * changes to catch up (a worker's are).
 */
export async function replacePlaceStates(
  db: Database,
  rows: ReadonlyArray<SerializedPlaceState>,
): Promise<void> {
  await upsertStates(db, await statesTheReplayChanges(db, rows.map(toWrite)), 'same-or-newer');
}

/**
 * The refolded states whose write would change their stored row (the upsert's own condition below),
 * found with a plain select. The upsert locks every row it meets before it checks its condition, and
 * that lock dirties the row's page and logs it: a replay that changes nothing (the fold did not change)
 * would otherwise log every page of the table. A worker's write landing between this read and the
 * upsert has a newer version, which the upsert's condition keeps whether or not the row is sent.
 */
async function statesTheReplayChanges(
  db: Database,
  rows: ReadonlyArray<StateToWrite>,
): Promise<StateToWrite[]> {
  if (rows.length === 0) return [];
  const { rows: changed } = await sql<{ place_id: string }>`
    select v.place_id
    from unnest(${columnOf(rows, (row) => row.placeId)}::text[],
                ${columnOf(rows, (row) => row.stateVersion)}::bigint[],
                ${columnOf(rows, (row) => row.documentDigest)}::text[],
                ${columnOf(rows, (row) => row.merge?.mergedInto ?? null)}::text[],
                ${columnOf(rows, (row) => row.merge?.mergedAt ?? null)}::timestamptz[],
                ${columnOf(rows, (row) => row.merge?.profilePage ?? null)}::text[])
      as v(place_id, state_version, document_digest, merged_into, merged_at, merged_profile)
    left join places on places.place_id = v.place_id
    where places.place_id is null
       or places.state_version < v.state_version
       or (places.state_version = v.state_version
           and (${storedDocumentDigest} is distinct from decode(v.document_digest, 'hex')
                or places.merged_into is distinct from v.merged_into
                or places.merged_at is distinct from v.merged_at
                or places.merged_profile is distinct from v.merged_profile))`.execute(db);
  const changedIds = new Set(changed.map((row) => row.place_id));
  return rows.filter((row) => changedIds.has(row.placeId));
}

/** `doctorDigest` of a stored document, computed by PostgreSQL: it parses the document for its `doctor`. */
export function doctorDigestInDatabase(document: RawBuilder<unknown>): RawBuilder<Buffer> {
  return sql<Buffer>`sha256(convert_to(coalesce((${document} -> 'doctor')::text, 'null'), 'UTF8'))`;
}

/** `documentDigest` of a stored document, computed by PostgreSQL from its text (read and decompressed). */
export function documentDigestInDatabase(document: RawBuilder<unknown>): RawBuilder<Buffer> {
  return sql<Buffer>`sha256(convert_to(${document}::text, 'UTF8'))`;
}

/*
 * The stored row's digests; a row written before they were kept (migrations 0021, 0022) has none, and its
 * document is digested instead, by the write that then stores them. A stub row (events stored, never
 * folded) has no document, and so no digest: any state differs from it.
 */
const storedDoctorDigest = sql`coalesce(places.doctor_digest, ${doctorDigestInDatabase(sql.ref('places.document'))})`;
const storedDocumentDigest = sql`coalesce(places.document_digest, ${documentDigestInDatabase(sql.ref('places.document'))})`;

async function upsertStates(
  db: Database,
  rows: ReadonlyArray<StateToWrite>,
  when: 'newer' | 'same-or-newer',
): Promise<void> {
  if (rows.length === 0) return;
  const sorted = byPlaceId(rows);
  // A replay rewrites a row at the same version only if the refold changed it: an unchanged row is
  // not written again (no new row version, WAL or index entries for what a replay with an unchanged fold
  // would only copy). The documents are compared by the digest of their text, as the replay's select does.
  const condition =
    when === 'newer'
      ? sql`places.state_version < excluded.state_version`
      : sql`(places.state_version < excluded.state_version
             or (places.state_version = excluded.state_version
                 and (${storedDocumentDigest} is distinct from excluded.document_digest
                      or places.merged_into is distinct from excluded.merged_into
                      or places.merged_at is distinct from excluded.merged_at
                      or places.merged_profile is distinct from excluded.merged_profile)))`;
  const updatedAt = when === 'newer' ? sql`excluded.updated_at` : sql`places.updated_at`;
  // The changes feed (migrations 0005, 0011): `changed_xid` and `changed_at` move to this transaction
  // only when what a consumer sees changes (served or not, the public doctor, the dataset), so a re-crawl
  // with identical data or a replay with an unchanged fold adds nothing to the feed. Doctors are compared
  // by the digest of their JSON text (migration 0021): both sides are JSON.stringify output of the same
  // allowlist, and a spurious difference only repeats an entry.
  // A tombstone keeps the dataset it was last served in, so that dataset's consumers see the removal.
  await sql`
    insert into places (place_id, document, state_version, stream_version, served, updated_at,
                        changed_xid, changed_at, feed_country, merged_into, merged_at, merged_profile,
                        doctor_digest, document_digest)
    select place_id, document, state_version, state_version, served, now(),
           case when served then pg_current_xact_id() end, case when served then now() end,
           case when served then country end, merged_into, merged_at, merged_profile,
           decode(doctor_digest, 'hex'), decode(document_digest, 'hex')
    from unnest(${columnOf(sorted, (row) => row.placeId)}::text[],
                ${jsonColumnOf(sorted.map((row) => row.documentJson))},
                ${columnOf(sorted, (row) => row.stateVersion)}::bigint[],
                ${columnOf(sorted, (row) => row.document.served)}::boolean[],
                ${columnOf(sorted, (row) => (row.document.served ? row.document.country : null))}::text[],
                ${columnOf(sorted, (row) => row.merge?.mergedInto ?? null)}::text[],
                ${columnOf(sorted, (row) => row.merge?.mergedAt ?? null)}::timestamptz[],
                ${columnOf(sorted, (row) => row.merge?.profilePage ?? null)}::text[],
                ${columnOf(sorted, (row) => doctorDigest(row.document))}::text[],
                ${columnOf(sorted, (row) => row.documentDigest)}::text[])
      as v(place_id, document, state_version, served, country, merged_into, merged_at, merged_profile,
           doctor_digest, document_digest)
    order by place_id
    on conflict (place_id) do update set
      document = excluded.document, state_version = excluded.state_version,
      served = excluded.served, updated_at = ${updatedAt},
      merged_into = excluded.merged_into, merged_at = excluded.merged_at,
      merged_profile = excluded.merged_profile, doctor_digest = excluded.doctor_digest,
      document_digest = excluded.document_digest,
      (changed_xid, changed_at) = (
        select case when seen then pg_current_xact_id() else places.changed_xid end,
               case when seen then now() else places.changed_at end
        from (select places.served is distinct from excluded.served
                or ${storedDoctorDigest} is distinct from excluded.doctor_digest
                or places.feed_country is distinct from coalesce(excluded.feed_country, places.feed_country)
              as seen) as consumer_sees_change),
      feed_country = coalesce(excluded.feed_country, places.feed_country)
    where ${condition}`.execute(db);
}

/**
 * Records that the index holds at least `version` for each place (never moves backwards). A place still
 * behind its stream (events appended while it was folded) gets the age of its oldest change still
 * missing; a caught-up place has none.
 */
export async function markProjected(
  db: Database,
  projected: ReadonlyArray<{ placeId: string; version: number }>,
): Promise<void> {
  if (projected.length === 0) return;
  const sorted = byPlaceId(projected);
  // Rows are locked in place-id order (the subquery), like every other multi-row write here.
  await sql`
    update places set projected_version = greatest(places.projected_version, v.version),
      lag_since = case when greatest(places.projected_version, v.version) >= places.stream_version then null
                       else ${oldestMissingChange(sql`greatest(places.projected_version, v.version)`)} end
    from unnest(${columnOf(sorted, (item) => item.placeId)}::text[],
                ${columnOf(sorted, (item) => item.version)}::bigint[]) as v(place_id, version)
    where places.place_id = v.place_id
      and places.place_id in (
        select place_id from places where place_id = any(${columnOf(sorted, (item) => item.placeId)}::text[])
        order by place_id for update)`.execute(db);
}

/**
 * When the oldest change the index lacks was stored: the stream's (`projectedVersion` + 1)-th event,
 * reached through `events_place_position`. For a `places` row in the statement it is part of.
 */
export function oldestMissingChange(projectedVersion: RawBuilder<number>): RawBuilder<Date | null> {
  return sql<Date | null>`(
    select events.recorded_at from events where events.place_id = places.place_id
    order by events.position offset ${projectedVersion} limit 1)`;
}

/**
 * A lagging `places` row's age: kept in `lag_since` (migration 0008), looked up in the events for rows
 * that do not have it.
 */
export const lagSince = sql<Date | null>`coalesce(places.lag_since, ${oldestMissingChange(
  sql`places.projected_version`,
)})`;

type Schema = Database extends Kysely<infer S> ? S : never;

type LaggingOptions = { limit: number; among?: ReadonlyArray<string>; after?: string; settledForMs?: number };

/**
 * Places whose index copy lags their stored stream (a lost job, a crash between store and index): the
 * sweeper refolds them from their events. A place whose document the index refused at its current
 * stream version (a projection failure) is skipped until new events arrive or an operator releases it.
 * `among` narrows the search to the given places; `after` pages on in place-id order, so a sweep walks
 * the whole list once instead of retrying its first page. `settledForMs` leaves out places whose
 * oldest change missing from the index was stored less than that long ago: a job that appended them
 * is most likely still projecting them, and refolding them too would only repeat its work.
 */
export async function findLaggingPlaceIds(db: Database, options: LaggingOptions): Promise<string[]> {
  if (options.among?.length === 0) return [];
  return (await laggingPlaces(db, options).execute()).map((row) => row.place_id);
}

function laggingPlaces(db: QueryCreator<Schema>, options: LaggingOptions) {
  let query = db
    .selectFrom('places')
    .select('place_id')
    .where('projected_version', '<', (eb) => eb.ref('stream_version'))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('projection_failures')
            .select('projection_failures.place_id')
            .whereRef('projection_failures.place_id', '=', 'places.place_id')
            .whereRef('projection_failures.state_version', '>=', 'places.stream_version'),
        ),
      ),
    )
    .orderBy('place_id')
    .limit(options.limit);
  if (options.after !== undefined) query = query.where('place_id', '>', options.after);
  if (options.settledForMs !== undefined && options.settledForMs > 0) {
    // Should the age be unknown, the place is swept.
    const settledSince = sql<Date>`now() - make_interval(secs => ${options.settledForMs / 1_000})`;
    query = query.where(sql<boolean>`coalesce(${lagSince} < ${settledSince}, true)`);
  }
  if (options.among)
    query = query.where('place_id', '=', sql<string>`any(${sql.val([...options.among])}::text[])`);
  return query;
}

/** Places a sweeper claimed, and the claim's expiry that identifies it when it is released. */
export type SweepClaim = { placeIds: string[]; until: Date | null };

/**
 * Claims up to `limit` lagging places (as `findLaggingPlaceIds` finds them) for `claimForMs`, so that
 * concurrent sweepers share them instead of each refolding every one. One short statement, no session
 * state: rows another sweeper is claiming at this instant (or a batch is appending to) are skipped
 * (`skip locked`), rows under an unexpired claim are left out, and a claim whose sweeper died lapses by
 * itself at its expiry.
 */
export async function claimLaggingPlaces(
  db: Database,
  options: Omit<LaggingOptions, 'among'> & { claimForMs: number },
): Promise<SweepClaim> {
  const rows = await db
    .with(
      (cte) => cte('claimable').materialized(),
      (qb) =>
        laggingPlaces(qb, options)
          .where((eb) =>
            eb.or([eb('sweep_claimed_until', 'is', null), eb('sweep_claimed_until', '<', sql<Date>`now()`)]),
          )
          .forUpdate()
          .skipLocked(),
    )
    .updateTable('places')
    // Whole milliseconds, so the expiry read back into a Date still names this claim when it is released.
    .set({
      sweep_claimed_until: sql<Date>`date_trunc('milliseconds',
        now() + make_interval(secs => ${options.claimForMs / 1_000}))`,
    })
    .from('claimable')
    .whereRef('places.place_id', '=', 'claimable.place_id')
    .returning(['places.place_id', 'places.sweep_claimed_until'])
    .execute();
  const placeIds = rows.map((row) => row.place_id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { placeIds, until: rows[0]?.sweep_claimed_until ?? null };
}

/** Ends a claim once its places are refolded (a later lag is swept at once); another's claim is kept. */
export async function releaseSweepClaim(db: Database, claim: SweepClaim): Promise<void> {
  if (claim.placeIds.length === 0 || claim.until === null) return;
  await db
    .updateTable('places')
    .set({ sweep_claimed_until: null })
    .where('place_id', '=', sql<string>`any(${sql.val(claim.placeIds)}::text[])`)
    .where('sweep_claimed_until', '=', claim.until)
    .execute();
}

/**
 * A place whose stored document the index refused (a projection failure at that version): set aside, so
 * a reindex neither copies it (it would be refused again and fail the run) nor expects it in the index.
 */
const notSetAside = sql<boolean>`not exists (
  select 1 from projection_failures f
  where f.place_id = places.place_id and f.state_version >= places.state_version)`;

/** Served places the index is expected to hold (places set aside as projection failures excluded). */
export async function countServedPlaces(db: Database): Promise<number> {
  const row = await db
    .selectFrom('places')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('served', '=', true)
    .where(notSetAside)
    .executeTakeFirstOrThrow();
  return row.count;
}

/** Places with an index document (served ones and tombstones), as `streamProjections` pages through them. */
export async function countProjections(db: Database): Promise<number> {
  const row = await db
    .selectFrom('places')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('document', 'is not', null)
    .where(notSetAside)
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function countPlacesUpdatedSince(db: Database, since: Date): Promise<number> {
  const row = await db
    .selectFrom('places')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('updated_at', '>=', since)
    .executeTakeFirstOrThrow();
  return row.count;
}

/**
 * Pages through stored index documents in place-id order, as text (keyset pagination: memory stays
 * flat at any table size). Tombstones are included: an index needs them to refuse stale writes.
 * `updatedSince` narrows to rows written at or after that time (catch-up).
 * Places set aside as projection failures are left out.
 */
export async function* streamProjections(
  db: Database,
  options: { updatedSince?: Date; pageSize?: number } = {},
): AsyncGenerator<StoredProjection[]> {
  let after = '';
  for (;;) {
    let query = db
      .selectFrom('places')
      .select(['place_id', 'state_version', sql<string>`document::text`.as('document_json')])
      .where('place_id', '>', after)
      .where('document', 'is not', null)
      .where(notSetAside)
      .orderBy('place_id')
      .limit(options.pageSize ?? 2_000);
    if (options.updatedSince) query = query.where('updated_at', '>=', options.updatedSince);
    const rows = await query.execute();
    if (rows.length === 0) return;
    yield rows.map((row) => ({
      placeId: row.place_id,
      version: row.state_version,
      documentJson: row.document_json,
    }));
    after = rows[rows.length - 1]?.place_id ?? after;
  }
}

export async function databaseNow(db: Database): Promise<Date> {
  const row = await sql<{ now: Date }>`select now() as now`.execute(db);
  return row.rows[0]?.now ?? new Date();
}

/**
 * Concurrent batches touch overlapping places; writing rows in one global order (place id) means two
 * transactions never wait on each other's locks in opposite orders, so they cannot deadlock.
 */
function byPlaceId<T extends { placeId: string }>(rows: ReadonlyArray<T>): T[] {
  return [...rows].sort((a, b) => (a.placeId < b.placeId ? -1 : a.placeId > b.placeId ? 1 : 0));
}

/** The stored stream version of each given place that has a row (a missing place has none). */
export async function readStreamVersions(
  db: Database,
  placeIds: ReadonlyArray<string>,
): Promise<Map<string, number>> {
  if (placeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('places')
    .select(['place_id', 'stream_version'])
    .where('place_id', 'in', [...placeIds])
    .execute();
  return new Map(rows.map((row) => [row.place_id, row.stream_version]));
}
