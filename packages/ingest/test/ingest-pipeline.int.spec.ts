import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldPlace, placeEventSchema, toSearchDocument } from '@directory/domain';
import { appendEvents, findLaggingPlaceIds, readStreams } from '@directory/event-store';
import { ensureDoctorsIndex, writeProjections } from '@directory/search-index';
import {
  crawled,
  createTestDatabase,
  createTestSearch,
  lifecycle,
  published,
  type TestDatabase,
} from '@directory/testing';
import { ingestBatch } from '../src/ingest.service.js';
import { sweepLaggingPlaces, type ProjectorDependencies } from '../src/projector.service.js';

const SITE = 'https://www.doctor-directory.example';

describe('ingest pipeline on the real store and index', () => {
  let database: TestDatabase;
  const search = createTestSearch('ingest-pipeline');
  const alias = `${search.prefix}_doctors`;
  let deps: ProjectorDependencies;

  beforeAll(async () => {
    database = await createTestDatabase('ingest-pipeline');
    await ensureDoctorsIndex(search.client, alias);
    deps = { db: database.db, search: { client: search.client, alias }, siteOrigin: SITE };
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  async function indexed(placeId: string) {
    await search.client.indices.refresh({ index: alias });
    const response = await search.client.get<Record<string, unknown>>(
      { index: alias, id: placeId },
      { ignore: [404] },
    );
    return response.found ? { version: response._version, source: response._source } : null;
  }

  async function replay(placeId: string) {
    const streams = await readStreams(database.db, [placeId]);
    return foldPlace(placeId, streams.get(placeId) ?? []);
  }

  it('stores valid events once, dead-letters invalid ones, and indexes exactly the served places', async () => {
    const items = [
      crawled('A1', 1, '2026-01-01T10:00:00Z'),
      published('A1', '2026-01-01T11:00:00Z'),
      crawled('B1', 1, '2026-01-01T10:00:00Z'),
      published('B1', '2026-01-01T11:00:00Z'),
      lifecycle('B1', 'place.suppressed', '2026-01-01T12:00:00Z', { reason: 'owner request' }),
      crawled('C1', 1, '2026-01-01T10:00:00Z'), // crawled only: never published
      crawled('A1', 1, '2026-01-01T10:00:00Z'), // duplicate within the batch
      { ...crawled('D1', 1, '2026-01-01T10:00:00Z'), type: 'place.teleported' },
      { eventId: 'broken', placeId: 'E1' },
    ].map((raw, index) => ({ raw, source: `test:${index + 1}` }));

    const result = await ingestBatch(deps, items);
    expect(result).toEqual({
      received: 9,
      stored: 6,
      duplicates: 1,
      deadLettered: 2,
      projected: 3,
      projectionFailures: 0,
      // The last event stored: the place whose freshness the worker samples.
      samplePlaceId: 'C1',
    });

    const a1 = await indexed('A1');
    expect(a1?.source).toEqual(toSearchDocument(await replay('A1'), { siteOrigin: SITE }));
    expect(JSON.stringify(a1?.source)).not.toMatch(/internalScore|crawlId|sourceUrl/);
    expect((await indexed('B1'))?.source).toEqual({ served: false, placeId: 'B1' });
    expect((await indexed('C1'))?.source).toEqual({ served: false, placeId: 'C1' });

    const letters = await database.db
      .selectFrom('dead_letters')
      .select(['reason', 'source'])
      .orderBy('id')
      .execute();
    expect(letters.map((letter) => letter.source)).toEqual(['test:8', 'test:9']);
    expect(letters[0]?.reason).toMatch(/type/);

    // Re-sending the same batch (a BullMQ retry) stores and dead-letters nothing twice.
    const again = await ingestBatch(deps, items);
    expect(again.stored).toBe(0);
    expect(again.duplicates).toBe(7);
    expect(again.projected).toBe(0); // nothing lags: a re-sent batch costs no refolds
    expect(await database.db.selectFrom('events').select('event_id').execute()).toHaveLength(6);
    expect(await database.db.selectFrom('dead_letters').select('id').execute()).toHaveLength(2);
  });

  it('converges whatever the arrival order: a late, older event is folded into place', async () => {
    await ingestBatch(deps, [
      { raw: crawled('L1', 2, '2026-02-02T10:00:00Z', { name: 'Newest Name' }), source: 't' },
      { raw: published('L1', '2026-02-02T11:00:00Z'), source: 't' },
    ]);
    await ingestBatch(deps, [
      { raw: crawled('L1', 1, '2026-02-01T10:00:00Z', { name: 'Old Name' }), source: 't' },
    ]);
    const document = await indexed('L1');
    expect((document?.source as { doctor: { name: string } }).doctor.name).toBe('Newest Name');
    expect(document?.version).toBe((await replay('L1')).version);
  });

  it('never lets a stale projection win, not even over a tombstone', async () => {
    await ingestBatch(deps, [
      { raw: crawled('S1', 1, '2026-03-01T10:00:00Z'), source: 't' },
      { raw: published('S1', '2026-03-01T11:00:00Z'), source: 't' },
    ]);
    const servedState = await replay('S1');
    await ingestBatch(deps, [{ raw: lifecycle('S1', 'place.closed', '2026-03-02T10:00:00Z'), source: 't' }]);
    const closedState = await replay('S1');
    expect(closedState.version).toBeGreaterThan(servedState.version);

    // A slow worker now writes the older, served version: the tombstone must stay.
    const result = await writeProjections(search.client, alias, [
      {
        placeId: 'S1',
        version: servedState.version,
        source: toSearchDocument(servedState, { siteOrigin: SITE }),
      },
    ]);
    // Refused as stale, and named as a write the index holds a newer version of (the store has it too).
    expect(result).toEqual({
      written: 0,
      stale: 1,
      refused: [],
      newerInIndex: [{ placeId: 'S1', version: servedState.version, indexVersion: closedState.version }],
    });
    expect((await indexed('S1'))?.source).toEqual({ served: false, placeId: 'S1' });
    expect((await indexed('S1'))?.version).toBe(closedState.version);
  });

  it('finishes the projection when a batch is retried after a crash between append and projection', async () => {
    const items = [crawled('K1', 1, '2026-05-01T10:00:00Z'), published('K1', '2026-05-01T11:00:00Z')];
    // The first attempt stored the events and died before folding or projecting.
    await appendEvents(
      database.db,
      items.map((raw) => placeEventSchema.parse(raw)),
    );
    const retry = await ingestBatch(
      deps,
      items.map((raw) => ({ raw, source: 't' })),
    );
    expect(retry).toMatchObject({ stored: 0, duplicates: 2, projected: 1 });
    expect((await indexed('K1'))?.source).toEqual(toSearchDocument(await replay('K1'), { siteOrigin: SITE }));
  });

  it('hands back a stream without reading it only when the append stored all of it', async () => {
    const parse = (raw: unknown) => placeEventSchema.parse(raw);
    const first = await appendEvents(database.db, [
      // An offset timestamp: the store reads it back in UTC, and the stream in hand must match that.
      parse(crawled('H1', 1, '2026-06-01T12:00:00+02:00')),
      parse(published('H1', '2026-06-01T11:00:00Z')),
      parse(crawled('H2', 1, '2026-06-01T10:00:00Z')),
    ]);
    const stored = await readStreams(database.db, ['H1', 'H2']);
    expect(first.completeStreams).toEqual(stored);

    // H1 gets one more event: the store holds three, the call stored one, so H1 is not complete.
    const second = await appendEvents(database.db, [
      parse(lifecycle('H1', 'place.verified', '2026-06-02T10:00:00Z')),
      parse(crawled('H2', 1, '2026-06-01T10:00:00Z')), // a duplicate: stores nothing
      parse(crawled('H3', 1, '2026-06-01T10:00:00Z')),
    ]);
    expect([...second.completeStreams.keys()]).toEqual(['H3']);
    // Appended, never projected: the sweeper owns them now (and the next test expects a clean slate).
    expect((await sweepLaggingPlaces(deps)).projected).toBe(3);
  });

  it('sweeps places whose events were stored but never folded or projected (a lost job)', async () => {
    // The job died right after the append: events stored, nothing folded, nothing in the index.
    const events = [crawled('W1', 1, '2026-04-01T10:00:00Z'), published('W1', '2026-04-01T11:00:00Z')].map(
      (raw) => placeEventSchema.parse(raw),
    );
    await appendEvents(database.db, events);
    expect(await indexed('W1')).toBeNull();

    expect((await sweepLaggingPlaces(deps)).projected).toBe(1);
    const state = await replay('W1');
    expect((await indexed('W1'))?.source).toEqual(toSearchDocument(state, { siteOrigin: SITE }));
    expect((await indexed('W1'))?.version).toBe(2);
    expect((await sweepLaggingPlaces(deps)).projected).toBe(0);
  });

  it('leaves lag younger than the grace to the job that stored it, counting from the oldest change missing', async () => {
    const parse = (raw: unknown) => placeEventSchema.parse(raw);
    // As if the place's events had been stored `seconds` earlier (the lag's age is kept in `places` too).
    const age = async (placeId: string, seconds: number) => {
      await sql`update events set recorded_at = recorded_at - make_interval(secs => ${seconds})
                where place_id = ${placeId}`.execute(database.db);
      await sql`update places set lag_since = lag_since - make_interval(secs => ${seconds})
                where place_id = ${placeId}`.execute(database.db);
    };
    // G1: stored a minute ago and never projected (its job was lost). G2: projected long ago, then one new
    // event stored just now, so its oldest missing change is fresh. G3: stored just now.
    await appendEvents(database.db, [parse(crawled('G1', 1, '2026-05-01T10:00:00Z'))]);
    await age('G1', 60);
    await ingestBatch(deps, [{ raw: crawled('G2', 1, '2026-05-01T10:00:00Z'), source: 'test:1' }]);
    await age('G2', 3_600);
    await appendEvents(database.db, [
      parse(published('G2', '2026-05-01T11:00:00Z')),
      parse(crawled('G3', 1, '2026-05-01T10:00:00Z')),
    ]);

    expect((await sweepLaggingPlaces(deps, { graceMs: 30_000 })).projected).toBe(1);
    expect(await findLaggingPlaceIds(database.db, { limit: 10 })).toEqual(['G2', 'G3']);
    // Once the grace has passed for them too (or with none), the sweeper takes them.
    await age('G2', 60);
    expect((await sweepLaggingPlaces(deps, { graceMs: 30_000 })).projected).toBe(1);
    expect(await findLaggingPlaceIds(database.db, { limit: 10 })).toEqual(['G3']);
    expect((await sweepLaggingPlaces(deps)).projected).toBe(1);
    expect(await findLaggingPlaceIds(database.db, { limit: 10 })).toEqual([]);
  });
});
