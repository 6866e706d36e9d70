import { sql } from 'kysely';
import type { Database } from '@directory/database';
import type { PlaceState } from '@directory/domain';

export type PlaceRow = { placeId: string; state: PlaceState; streamVersion: number; served: boolean };

/**
 * Saves folded states. A row only moves forward: when two workers refold the same place concurrently,
 * the one that saw more of the stream (higher version) wins, whatever order their writes land in.
 */
export async function savePlaceStates(db: Database, rows: ReadonlyArray<PlaceRow>): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('places')
    .values(
      rows.map((row) => ({
        place_id: row.placeId,
        state: JSON.stringify(row.state),
        stream_version: row.streamVersion,
        served: row.served,
        updated_at: sql<Date>`now()`,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .column('place_id')
        .doUpdateSet((eb) => ({
          state: eb.ref('excluded.state'),
          stream_version: eb.ref('excluded.stream_version'),
          served: eb.ref('excluded.served'),
          updated_at: eb.ref('excluded.updated_at'),
        }))
        .where('places.stream_version', '<', (eb) => eb.ref('excluded.stream_version')),
    )
    .execute();
}

/** Records that the index holds at least `version` for each place (never moves backwards). */
export async function markProjected(
  db: Database,
  projected: ReadonlyArray<{ placeId: string; version: number }>,
): Promise<void> {
  if (projected.length === 0) return;
  await sql`
    update places set projected_version = greatest(places.projected_version, v.version)
    from unnest(${sql.val(projected.map((item) => item.placeId))}::text[],
                ${sql.val(projected.map((item) => item.version))}::bigint[]) as v(place_id, version)
    where places.place_id = v.place_id`.execute(db);
}

/** Places whose index copy lags their stream: the sweeper's work list. */
export async function findLaggingPlaces(db: Database, limit: number): Promise<PlaceRow[]> {
  const rows = await db
    .selectFrom('places')
    .select(['place_id', 'state', 'stream_version', 'served'])
    .where('projected_version', '<', (eb) => eb.ref('stream_version'))
    .orderBy('place_id')
    .limit(limit)
    .execute();
  return rows.map(toPlaceRow);
}

export async function getPlaces(db: Database, placeIds: ReadonlyArray<string>): Promise<PlaceRow[]> {
  if (placeIds.length === 0) return [];
  const rows = await db
    .selectFrom('places')
    .select(['place_id', 'state', 'stream_version', 'served'])
    .where('place_id', '=', sql<string>`any(${sql.val([...placeIds])}::text[])`)
    .execute();
  return rows.map(toPlaceRow);
}

export async function countPlaces(db: Database): Promise<{ total: number; served: number; lagging: number }> {
  const row = await db
    .selectFrom('places')
    .select([
      sql<number>`count(*)::int`.as('total'),
      sql<number>`count(*) filter (where served)::int`.as('served'),
      sql<number>`count(*) filter (where projected_version < stream_version)::int`.as('lagging'),
    ])
    .executeTakeFirstOrThrow();
  return row;
}

function toPlaceRow(row: {
  place_id: string;
  state: Record<string, unknown>;
  stream_version: number;
  served: boolean;
}): PlaceRow {
  return {
    placeId: row.place_id,
    // The state column is only ever written from a folded PlaceState.
    state: row.state as unknown as PlaceState,
    streamVersion: row.stream_version,
    served: row.served,
  };
}

/**
 * Pages through places in place-id order (keyset pagination: memory stays flat at any table size).
 * `updatedSince` narrows to rows written at or after that time (reindex catch-up).
 */
export async function* streamPlaces(
  db: Database,
  options: { servedOnly?: boolean; updatedSince?: Date; pageSize?: number } = {},
): AsyncGenerator<PlaceRow[]> {
  let after = '';
  for (;;) {
    let query = db
      .selectFrom('places')
      .select(['place_id', 'state', 'stream_version', 'served'])
      .where('place_id', '>', after)
      .orderBy('place_id')
      .limit(options.pageSize ?? 2_000);
    if (options.servedOnly) query = query.where('served', '=', true);
    if (options.updatedSince) query = query.where('updated_at', '>=', options.updatedSince);
    const rows = await query.execute();
    if (rows.length === 0) return;
    yield rows.map(toPlaceRow);
    after = rows[rows.length - 1]?.place_id ?? after;
  }
}

/**
 * Replay writes: overwrite states refolded with a changed fold even at the same version, but never
 * replace a row a worker has meanwhile moved to a newer version.
 */
export async function replacePlaceStates(db: Database, rows: ReadonlyArray<PlaceRow>): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('places')
    .values(
      rows.map((row) => ({
        place_id: row.placeId,
        state: JSON.stringify(row.state),
        stream_version: row.streamVersion,
        served: row.served,
        updated_at: sql<Date>`now()`,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .column('place_id')
        .doUpdateSet((eb) => ({
          state: eb.ref('excluded.state'),
          stream_version: eb.ref('excluded.stream_version'),
          served: eb.ref('excluded.served'),
          updated_at: eb.ref('excluded.updated_at'),
        }))
        .where('places.stream_version', '<=', (eb) => eb.ref('excluded.stream_version')),
    )
    .execute();
}

export async function databaseNow(db: Database): Promise<Date> {
  const row = await sql<{ now: Date }>`select now() as now`.execute(db);
  return row.rows[0]?.now ?? new Date();
}

export async function countPlacesUpdatedSince(db: Database, since: Date): Promise<number> {
  const row = await db
    .selectFrom('places')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('updated_at', '>=', since)
    .executeTakeFirstOrThrow();
  return row.count;
}
