import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastPosition } from '@directory/event-store';
import { ingestBatch, readStoreBehindIndex, type ProjectorDependencies } from '@directory/ingest';
import { ensureDoctorsIndex, STORE_BEHIND_REPAIR, type PlaceAheadOfStore } from '@directory/search-index';
import {
  checkConvergence,
  crawled,
  createTestDatabase,
  createTestSearch,
  published,
  type TestDatabase,
} from '@directory/testing';
import { reindex } from '../src/reindex.service.js';

const SITE = 'https://www.doctor-directory.example';
const at = (minute: number) => `2026-05-01T08:${String(minute).padStart(2, '0')}:00Z`;

/**
 * A failover that lost commits, as the store sees it: the promoted standby had replayed the store up to
 * some position, so the events after it and the place rows they changed are as they were then.
 */
describe('a store that went back in time behind the index', () => {
  let database: TestDatabase;
  const search = createTestSearch('store-behind');
  const alias = `${search.prefix}_doctors`;
  let deps: ProjectorDependencies;
  const ahead: PlaceAheadOfStore[] = [];
  const ingest = (events: ReadonlyArray<unknown>) =>
    ingestBatch(
      deps,
      events.map((raw) => ({ raw, source: 'test' })),
    );

  beforeAll(async () => {
    database = await createTestDatabase('store-behind');
    await ensureDoctorsIndex(search.client, alias);
    deps = {
      db: database.db,
      search: { client: search.client, alias },
      siteOrigin: SITE,
      onStoreBehindIndex: (places) => ahead.push(...places),
    };
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  it('is detected, kept after the store moves on, and repaired by a replay into a new index', async () => {
    const kept = ['S1', 'S2', 'S3'].flatMap((placeId) => [
      crawled(placeId, 1, at(1)),
      published(placeId, at(2)),
    ]);
    await ingest(kept);
    expect(await readStoreBehindIndex(database.db, deps.search)).toBeNull();

    // What the standby had replayed when it was promoted.
    const replayedUpTo = await lastPosition(database.db);
    await sql`create table places_on_standby as select * from places`.execute(database.db);
    // Committed on the old primary and projected, never replayed: a new place and a re-crawl of S1.
    const lost = [
      crawled('L1', 1, at(3)),
      published('L1', at(4)),
      crawled('S1', 2, at(5), { name: 'Praxis S1 renamed' }),
    ];
    await ingest(lost);
    await sql`delete from events where position > ${replayedUpTo}`.execute(database.db);
    await sql`delete from places where place_id not in (select place_id from places_on_standby)`.execute(
      database.db,
    );
    await sql`
      update places p set document = s.document, stream_version = s.stream_version,
        state_version = s.state_version, projected_version = s.projected_version, served = s.served,
        doctor_digest = s.doctor_digest, document_digest = s.document_digest
      from places_on_standby s where s.place_id = p.place_id`.execute(database.db);
    await search.client.indices.refresh({ index: alias });

    // Without a rebuild the index keeps what the store lost: L1, and S1's lost name at version 3.
    const diverged = await checkConvergence({
      db: database.db,
      search: deps.search,
      siteOrigin: SITE,
      lines: kept,
    });
    expect(diverged.join('\n')).toMatch(/L1/);

    const found = await readStoreBehindIndex(database.db, deps.search);
    expect(found).toMatch(/went back in time: the index reflects events up to position/);
    expect(found).toContain(STORE_BEHIND_REPAIR);

    // The new primary stores more: its positions pass the mark, and a write for the lost place is refused
    // by the index with a version the store does not have. Neither hides the finding.
    const after = [
      crawled('L1', 1, at(6)),
      crawled('S2', 2, at(7)),
      crawled('S2', 3, at(8)),
      crawled('S2', 4, at(9)),
    ];
    await ingest(after);
    expect(await lastPosition(database.db)).toBeGreaterThan(replayedUpTo + lost.length);
    expect(ahead).toEqual([{ placeId: 'L1', indexVersion: 2, storeVersion: 1 }]);
    expect(await readStoreBehindIndex(database.db, deps.search)).toContain('went back in time');

    const summary = await reindex({
      db: database.db,
      client: search.client,
      alias,
      replay: true,
      siteOrigin: SITE,
    });
    expect(summary.replayed).toBeGreaterThan(0);
    expect(await readStoreBehindIndex(database.db, deps.search)).toBeNull();
    // The new index is a replay of the store, at the store's (lower) versions.
    expect(
      await checkConvergence({
        db: database.db,
        search: deps.search,
        siteOrigin: SITE,
        lines: [...kept, ...after],
      }),
    ).toEqual([]);
    // And the marks work again from there: a further write keeps the store level with the index.
    await ingest([crawled('S3', 2, at(10))]);
    expect(await readStoreBehindIndex(database.db, deps.search)).toBeNull();
  });
});

describe('the store-behind check while an ingest goes on', () => {
  let database: TestDatabase;
  const search = createTestSearch('store-level');
  const alias = `${search.prefix}_doctors`;
  let deps: ProjectorDependencies;
  const ingest = (events: ReadonlyArray<unknown>) =>
    ingestBatch(
      deps,
      events.map((raw) => ({ raw, source: 'test' })),
    );

  beforeAll(async () => {
    database = await createTestDatabase('store-level');
    await ensureDoctorsIndex(search.client, alias);
    deps = { db: database.db, search: { client: search.client, alias }, siteOrigin: SITE };
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  it('is not fooled by a batch stored and projected between its two reads', async () => {
    await ingest([crawled('R1', 1, at(1)), published('R1', at(2))]);
    // A client whose first read of the marks lets a whole batch be stored and projected first: what a
    // busy worker does to a check that reads the store's newest position before (or beside) the marks.
    let batchLanded = false;
    const racing = new Proxy(search.client, {
      get(target, property, receiver) {
        if (property !== 'get') return Reflect.get(target, property, receiver) as unknown;
        return async (...args: Parameters<typeof target.get>) => {
          if (!batchLanded) {
            batchLanded = true;
            // Time for a store read made beside this one to finish first (the race this check must not
            // lose); the right order never depends on this wait.
            await sleep(300);
            await ingest([crawled('R2', 1, at(3)), published('R2', at(4)), crawled('R1', 2, at(5))]);
          }
          return target.get(...args);
        };
      },
    });
    expect(await readStoreBehindIndex(database.db, { client: racing, alias })).toBeNull();
    expect(batchLanded).toBe(true);
    expect(await readStoreBehindIndex(database.db, deps.search)).toBeNull();
  });
});
