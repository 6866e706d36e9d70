import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '@directory/database';
import { placeEventSchema } from '@directory/domain';
import { appendEvents, claimLaggingPlaces, findLaggingPlaceIds } from '@directory/event-store';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  crawled,
  createTestDatabase,
  createTestSearch,
  published,
  SITE_ORIGIN,
  type TestDatabase,
} from '@directory/testing';
import { sweepLaggingPlaces, type ProjectorDependencies } from '../src/projector.service.js';

// Several workers sweep the same store: each lagging place must be refolded by one of them, and places
// claimed by a sweeper that died must not stay unswept.
describe('sweepers on several workers share the lagging places', () => {
  let database: TestDatabase;
  const search = createTestSearch('sweep-claims');
  const alias = `${search.prefix}_doctors`;
  // A second worker's own pool: its claims and refolds go through connections of its own.
  let otherDb: Database;
  const depsOf = (db: Database): ProjectorDependencies => ({
    db,
    search: { client: search.client, alias },
    siteOrigin: SITE_ORIGIN,
  });

  beforeAll(async () => {
    database = await createTestDatabase('sweep-claims');
    otherDb = createDatabase(database.url, { maxConnections: 2 });
    await ensureDoctorsIndex(search.client, alias);
  });
  afterAll(async () => {
    await otherDb.destroy();
    await search.cleanup();
    await database.drop();
  });

  /** Stores events for places `prefix0…` that no job projected (the jobs were lost): they all lag. */
  async function storeLagging(prefix: string, count: number): Promise<string[]> {
    const placeIds = Array.from(
      { length: count },
      (_, index) => `${prefix}${String(index).padStart(4, '0')}`,
    );
    await appendEvents(
      database.db,
      placeIds.flatMap((placeId) =>
        [crawled(placeId, 1, '2026-03-01T10:00:00Z'), published(placeId, '2026-03-01T11:00:00Z')].map((raw) =>
          placeEventSchema.parse(raw),
        ),
      ),
    );
    return placeIds;
  }

  it('refolds each lagging place exactly once when two sweepers run the same round', async () => {
    const placeIds = await storeLagging('A', 400);
    // Small pages, so the two sweepers meet on many of them.
    const [first, second] = await Promise.all([
      sweepLaggingPlaces(depsOf(database.db), { batchSize: 40 }),
      sweepLaggingPlaces(depsOf(otherDb), { batchSize: 40 }),
    ]);
    // Every place is refolded at least once (none lags any more), so a sum of exactly 400 means once each.
    expect(await findLaggingPlaceIds(database.db, { limit: 10 })).toEqual([]);
    expect((first?.refolded ?? 0) + (second?.refolded ?? 0)).toBe(placeIds.length);
    expect((first?.projected ?? 0) + (second?.projected ?? 0)).toBe(placeIds.length);
  });

  it("takes over places whose sweeper died with its claim's transaction open", async () => {
    const placeIds = await storeLagging('B', 30);
    // The dead sweeper: it claimed the first ten in a transaction that never ends (a hung session).
    const hung = new pg.Client({ connectionString: database.url });
    await hung.connect();
    hung.on('error', () => undefined); // terminated below, on purpose
    const pid = (await hung.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
    await hung.query('begin');
    await hung.query(
      `update places set sweep_claimed_until = now() + interval '1 hour'
       where place_id in (select place_id from places where place_id like 'B%' order by place_id limit 10
                          for update skip locked)`,
    );

    const meanwhile = await sweepLaggingPlaces(depsOf(database.db));
    expect(meanwhile.refolded).toBe(20);
    expect(await findLaggingPlaceIds(database.db, { limit: 100 })).toEqual(placeIds.slice(0, 10));

    // Its session ends (killed, or the server's idle-in-transaction timeout): the claim goes with it.
    await sql`select pg_terminate_backend(${pid})`.execute(database.db);
    await hung.end().catch(() => undefined);
    expect((await sweepLaggingPlaces(depsOf(database.db))).refolded).toBe(10);
    expect(await findLaggingPlaceIds(database.db, { limit: 100 })).toEqual([]);
  });

  it('takes over places whose sweeper died after claiming them, once the claim lapses', async () => {
    const placeIds = await storeLagging('C', 30);
    // The dead sweeper claimed the first page for 1.5 s, then died before refolding or releasing it.
    const dead = await claimLaggingPlaces(otherDb, { limit: 10, claimForMs: 1_500 });
    expect(dead.placeIds).toEqual(placeIds.slice(0, 10));

    expect((await sweepLaggingPlaces(depsOf(database.db))).refolded).toBe(20);
    expect(await findLaggingPlaceIds(database.db, { limit: 100 })).toEqual(placeIds.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect((await sweepLaggingPlaces(depsOf(database.db))).refolded).toBe(10);
    expect(await findLaggingPlaceIds(database.db, { limit: 100 })).toEqual([]);
  });

  it('releases its claims after each page, so a place lagging again is swept at once', async () => {
    const [placeId = ''] = await storeLagging('D', 1);
    expect((await sweepLaggingPlaces(depsOf(database.db))).refolded).toBe(1);
    // A new event whose job was lost: the place lags again, and the next sweep need not wait for a lease.
    await appendEvents(database.db, [placeEventSchema.parse(crawled(placeId, 2, '2026-03-02T10:00:00Z'))]);
    expect((await sweepLaggingPlaces(depsOf(otherDb), { claimForMs: 3_600_000 })).refolded).toBe(1);
    expect(await findLaggingPlaceIds(database.db, { limit: 10 })).toEqual([]);
  });
});
