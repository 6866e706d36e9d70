import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@directory/database';
import { placeEventSchema } from '@directory/domain';
import { crawled, createTestDatabase, lifecycle, type TestDatabase } from '@directory/testing';
import { appendEvents } from '../src/events.repository.js';
import { readProjectionLag } from '../src/operations.repository.js';
import { markProjected } from '../src/places.repository.js';

describe('the projection lag and its age, kept in the places row', () => {
  let database: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    database = await createTestDatabase('projection-lag');
    db = database.db;
  });
  afterAll(() => database.drop());

  const append = (...raws: unknown[]) =>
    appendEvents(
      db,
      raws.map((raw) => placeEventSchema.parse(raw)),
    );

  async function recordedAt(eventId: string): Promise<Date> {
    const row = await db
      .selectFrom('events')
      .select('recorded_at')
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    return row.recorded_at;
  }

  async function lagSinceOf(placeId: string): Promise<Date | null> {
    const row = await db
      .selectFrom('places')
      .select('lag_since')
      .where('place_id', '=', placeId)
      .executeTakeFirstOrThrow();
    return row.lag_since;
  }

  /** Lagging places whose kept age differs from the one looked up in the events: none, always. */
  async function driftedPlaces(): Promise<string[]> {
    const result = await sql<{ place_id: string }>`
      select place_id from places
      where projected_version < stream_version and lag_since is distinct from (
        select recorded_at from events where events.place_id = places.place_id
        order by position offset places.projected_version limit 1)`.execute(db);
    return result.rows.map((row) => row.place_id);
  }

  it('starts the age at the first change missing, moves it on a partial catch-up and clears it when caught up', async () => {
    const first = crawled('L1', 1, '2026-07-01T10:00:00Z');
    const second = lifecycle('L1', 'place.verified', '2026-07-01T11:00:00Z');
    const third = lifecycle('L1', 'place.unverified', '2026-07-01T12:00:00Z');
    await append(first);
    await append(second);
    const firstAt = await recordedAt(first.eventId);
    const secondAt = await recordedAt(second.eventId);
    expect(secondAt.getTime()).toBeGreaterThan(firstAt.getTime());

    // Lagging since the first event: a second one does not make the lag younger.
    expect(await lagSinceOf('L1')).toEqual(firstAt);
    expect(await readProjectionLag(db)).toEqual({ places: 1, setAside: 0, oldestChangeAt: firstAt });

    // The index got the first event only (the second arrived while the place was folded).
    await markProjected(db, [{ placeId: 'L1', version: 1 }]);
    expect(await lagSinceOf('L1')).toEqual(secondAt);
    expect(await readProjectionLag(db)).toEqual({ places: 1, setAside: 0, oldestChangeAt: secondAt });

    await markProjected(db, [{ placeId: 'L1', version: 2 }]);
    expect(await lagSinceOf('L1')).toBeNull();
    expect(await readProjectionLag(db)).toEqual({ places: 0, setAside: 0, oldestChangeAt: null });

    // Caught up, then a new change: the age starts again at it. An older mark changes nothing.
    await append(third);
    const thirdAt = await recordedAt(third.eventId);
    expect(await lagSinceOf('L1')).toEqual(thirdAt);
    await markProjected(db, [{ placeId: 'L1', version: 1 }]);
    expect(await lagSinceOf('L1')).toEqual(thirdAt);
    expect(await driftedPlaces()).toEqual([]);
  });

  it('takes the oldest age over every lagging place, and looks it up where the row does not keep it', async () => {
    const older = crawled('L2', 1, '2026-07-02T10:00:00Z');
    await append(older);
    await append(crawled('L3', 1, '2026-07-02T10:00:00Z'));
    // A row written before ages were kept (migration 0008 fills only rows lagging when it runs).
    await sql`update places set lag_since = null where place_id = 'L2'`.execute(db);
    await sql`update events set recorded_at = recorded_at - interval '1 hour' where place_id = 'L2'`.execute(
      db,
    );

    const lag = await readProjectionLag(db);
    expect(lag.places).toBe(3);
    expect(lag.oldestChangeAt).toEqual(await recordedAt(older.eventId));
  });
});
