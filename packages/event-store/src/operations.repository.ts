import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { lagSince } from './places.repository.js';

/** Read-only questions an operator asks of the store (metrics samplers and `npm run status`). */

export type ProjectionLag = {
  /** Places whose index copy is behind their stored stream (places set aside excluded). */
  places: number;
  /** Places set aside as projection failures at their current version: they wait for an operator. */
  setAside: number;
  /** When the oldest change not yet in the index was stored (null when nothing lags). */
  oldestChangeAt: Date | null;
};

/**
 * Lagging places come from the partial index `places_projection_lag`; each one's age is kept in the row
 * (`lagSince`), so a sample costs a few µs per lagging place rather than a lookup in `events` for each.
 */
export async function readProjectionLag(db: Database): Promise<ProjectionLag> {
  // A place set aside (refused by the index at its current version) lags on purpose: counted apart, so
  // lag, its age and staleness measure only what the projector can still do something about.
  const result = await sql<{ places: number; set_aside: number; oldest_change_at: Date | null }>`
    select count(*) filter (where f.place_id is null)::int as places,
      count(*) filter (where f.place_id is not null)::int as set_aside,
      min(${lagSince}) filter (where f.place_id is null) as oldest_change_at
    from places
    -- One failure row per place at most (its primary key): a join, not a lookup per lagging place.
    left join projection_failures f
      on f.place_id = places.place_id and f.state_version >= places.stream_version
    where places.projected_version < places.stream_version`.execute(db);
  const row = result.rows[0];
  return {
    places: row?.places ?? 0,
    setAside: row?.set_aside ?? 0,
    oldestChangeAt: row?.oldest_change_at ?? null,
  };
}

/** When the newest event was stored (null for an empty store). */
export async function newestEventRecordedAt(db: Database): Promise<Date | null> {
  const row = await db
    .selectFrom('events')
    .select('recorded_at')
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.recorded_at ?? null;
}

export async function countPendingDeadLetters(db: Database): Promise<number> {
  const row = await db
    .selectFrom('dead_letters')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('redriven_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.count;
}

/** When each place's event was stored and its stream version then; for freshness samples. */
export async function streamPositionOf(
  db: Database,
  placeId: string,
): Promise<{ version: number; recordedAt: Date; served: boolean } | null> {
  const result = await sql<{ version: number; recorded_at: Date; served: boolean }>`
    select places.stream_version as version, places.served, newest.recorded_at
    from places
    join lateral (
      select recorded_at from events where events.place_id = places.place_id
      order by position desc limit 1
    ) as newest on true
    where places.place_id = ${placeId}`.execute(db);
  const row = result.rows[0];
  return row ? { version: Number(row.version), recordedAt: row.recorded_at, served: row.served } : null;
}
