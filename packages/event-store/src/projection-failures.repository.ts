import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { columnOf } from './row-binding.js';

/** A place whose index document Elasticsearch refused for its content, at the stream version that failed. */
export type ProjectionFailure = {
  placeId: string;
  stateVersion: number;
  status: number;
  errorType: string;
  reason: string;
  attempts: number;
  firstFailedAt: Date;
  lastFailedAt: Date;
};

export type ProjectionFailureInput = Pick<
  ProjectionFailure,
  'placeId' | 'stateVersion' | 'status' | 'errorType' | 'reason'
>;

/** PostgreSQL text cannot hold NUL (Elasticsearch quotes document content in its reasons). */
function storableText(value: string): string {
  return value.replaceAll('\u0000', '\uFFFD');
}

/**
 * Records refused projections (one row per place, the latest failure wins). The place stays lagging in
 * `places`, and `findLaggingPlaceIds` skips it until new events raise its stream version or an operator
 * releases it (`releaseProjectionFailures`). A failure a concurrent worker already superseded (the index
 * holds that version or a newer one) is not recorded.
 */
export async function recordProjectionFailures(
  db: Database,
  failures: ReadonlyArray<ProjectionFailureInput>,
): Promise<void> {
  if (failures.length === 0) return;
  await sql`
    insert into projection_failures (place_id, state_version, status, error_type, reason)
    select v.place_id, v.state_version, v.status, v.error_type, v.reason
    from unnest(${columnOf(failures, (failure) => failure.placeId)}::text[],
                ${columnOf(failures, (failure) => failure.stateVersion)}::bigint[],
                ${columnOf(failures, (failure) => failure.status)}::int[],
                ${columnOf(failures, (failure) => storableText(failure.errorType))}::text[],
                ${columnOf(failures, (failure) => storableText(failure.reason))}::text[])
      as v(place_id, state_version, status, error_type, reason)
    where not exists (
      select 1 from places p where p.place_id = v.place_id and p.projected_version >= v.state_version)
    order by v.place_id
    on conflict (place_id) do update set
      state_version = excluded.state_version, status = excluded.status, error_type = excluded.error_type,
      reason = excluded.reason, attempts = projection_failures.attempts + 1, last_failed_at = now()`.execute(
    db,
  );
}

/** Forgets failures a later write superseded (the place's document at that version or newer is indexed). */
export async function clearProjectionFailures(
  db: Database,
  projected: ReadonlyArray<{ placeId: string; version: number }>,
): Promise<void> {
  if (projected.length === 0) return;
  await sql`
    delete from projection_failures as f
    using unnest(${columnOf(projected, (item) => item.placeId)}::text[],
                 ${columnOf(projected, (item) => item.version)}::bigint[]) as v(place_id, version)
    where f.place_id = v.place_id and f.state_version <= v.version`.execute(db);
}

/**
 * Removes failures so the places are projected again (after a fix to the mapping or the fold); returns
 * the place ids released. `'all'` releases every one.
 */
export async function releaseProjectionFailures(
  db: Database,
  placeIds: ReadonlyArray<string> | 'all',
): Promise<string[]> {
  let query = db.deleteFrom('projection_failures').returning('place_id');
  if (placeIds !== 'all') {
    if (placeIds.length === 0) return [];
    query = query.where('place_id', '=', sql<string>`any(${sql.val([...placeIds])}::text[])`);
  }
  return (await query.execute()).map((row) => row.place_id).sort();
}

export async function listProjectionFailures(
  db: Database,
  options: { limit?: number } = {},
): Promise<ProjectionFailure[]> {
  const rows = await db
    .selectFrom('projection_failures')
    .selectAll()
    .orderBy('place_id')
    .limit(options.limit ?? 100)
    .execute();
  return rows.map((row) => ({
    placeId: row.place_id,
    stateVersion: row.state_version,
    status: row.status,
    errorType: row.error_type,
    reason: row.reason,
    attempts: row.attempts,
    firstFailedAt: row.first_failed_at,
    lastFailedAt: row.last_failed_at,
  }));
}

/** Open projection failures by Elasticsearch error type (for metrics and `status`). */
export async function countProjectionFailures(
  db: Database,
): Promise<Array<{ errorType: string; count: number }>> {
  const rows = await db
    .selectFrom('projection_failures')
    .select(['error_type', sql<number>`count(*)::int`.as('count')])
    .groupBy('error_type')
    .orderBy('error_type')
    .execute();
  return rows.map((row) => ({ errorType: row.error_type, count: row.count }));
}

/** Of the given places, the ones set aside as projection failures, with the stream version refused. */
export async function setAsideVersions(
  db: Database,
  placeIds: ReadonlyArray<string>,
): Promise<Map<string, number>> {
  if (placeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('projection_failures')
    .select(['place_id', 'state_version'])
    .where('place_id', '=', sql<string>`any(${sql.val([...placeIds])}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.place_id, Number(row.state_version)]));
}
