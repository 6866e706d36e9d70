import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeEventSchema, type PlaceEvent } from '@directory/domain';
import {
  appendEvents,
  findLaggingPlaceIds,
  listDeadLetters,
  listProjectionFailures,
  readProjectionLag,
  recordProjectionFailures,
  releaseProjectionFailures,
} from '@directory/event-store';
import { createSearchClient, ensureDoctorsIndex } from '@directory/search-index';
import { ingestBatch, sweepLaggingPlaces, type ProjectorDependencies } from '@directory/ingest';
import {
  crawled,
  createTestDatabase,
  createTestSearch,
  freePort,
  published,
  startProcess,
  type TestDatabase,
} from '@directory/testing';
import { reindex } from '../src/reindex.service.js';

const SITE = 'https://www.doctor-directory.example';

/**
 * An event stored before the schema capped text fields (so it bypasses today's validation): a profile
 * slug far over Elasticsearch's 32,766-byte keyword limit (`profileSlug`). (A long name no longer
 * poisons: the sort key keeps only its first 200 code points.)
 */
function poisonEvents(placeId: string): PlaceEvent[] {
  const raw = published(placeId, '2026-01-01T11:00:00Z');
  const event = { ...raw, payload: { ...raw.payload, profileSlug: 'x'.repeat(40_000) } } as PlaceEvent;
  return [placeEventSchema.parse(crawled(placeId, 1, '2026-01-01T10:00:00Z')), event];
}

function goodEvents(placeId: string): PlaceEvent[] {
  return [crawled(placeId, 1, '2026-01-01T10:00:00Z'), published(placeId, '2026-01-01T11:00:00Z')].map(
    (raw) => placeEventSchema.parse(raw),
  );
}

describe('projection failures: a document the index refuses is set aside, the rest proceeds', () => {
  let database: TestDatabase;
  const search = createTestSearch('projection-failures');
  const alias = `${search.prefix}_doctors`;
  let deps: ProjectorDependencies;

  beforeAll(async () => {
    database = await createTestDatabase('projection-failures');
    await ensureDoctorsIndex(search.client, alias);
    deps = { db: database.db, search: { client: search.client, alias }, siteOrigin: SITE };
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  async function indexedIds(): Promise<string[]> {
    await search.client.indices.refresh({ index: alias });
    const response = await search.client.search({ index: alias, size: 100, query: { match_all: {} } });
    return response.hits.hits.map((hit) => hit._id ?? '').sort();
  }

  it('records the poison place with its reason, projects the others and skips it in later sweeps', async () => {
    // "A0" sorts first: before the fix the sweeper retried the first page, poison included, forever.
    await appendEvents(database.db, [...poisonEvents('A0'), ...goodEvents('B1'), ...goodEvents('C1')]);
    expect(await readProjectionLag(database.db)).toMatchObject({ places: 3, setAside: 0 });
    const observed: string[] = [];
    const sweep = await sweepLaggingPlaces(
      { ...deps, onRefused: (refused) => observed.push(...refused.map((failure) => failure.errorType)) },
      { batchSize: 1 },
    );
    expect(sweep.projected).toBe(2);
    expect(observed).toEqual([sweep.refused[0]?.errorType]);
    expect(sweep.refused.map((failure) => [failure.placeId, failure.status])).toEqual([['A0', 400]]);
    expect(await indexedIds()).toEqual(['B1', 'C1']);

    const [failure] = await listProjectionFailures(database.db);
    expect(failure).toMatchObject({ placeId: 'A0', stateVersion: 2, status: 400, attempts: 1 });
    expect(failure?.reason).toMatch(/immense term|profileSlug/);

    // Parked: the place still lags its stream, but a sweep no longer picks it, and the lag figures count
    // it apart (an operator's matter, not the projector's).
    expect(await findLaggingPlaceIds(database.db, { limit: 10 })).toEqual([]);
    expect(await readProjectionLag(database.db)).toEqual({ places: 0, setAside: 1, oldestChangeAt: null });
    expect(await sweepLaggingPlaces(deps)).toEqual({ refolded: 0, projected: 0, refused: [] });
  });

  it('does not record a failure a concurrent worker already superseded (the index holds that version)', async () => {
    const failure = { placeId: 'B1', stateVersion: 2, status: 400, errorType: 'x', reason: 'late' };
    await recordProjectionFailures(database.db, [failure]);
    expect((await listProjectionFailures(database.db)).map((row) => row.placeId)).toEqual(['A0']);
  });

  it('tries the place again when new events arrive, and forgets the failure once it is indexed', async () => {
    const fixed = placeEventSchema.parse({
      ...published('A0', '2026-02-01T10:00:00Z'),
      eventId: 'A0-published-again',
      payload: { country: 'de', citySlug: 'berlin', profileSlug: 'praxis-a0-slug-fixed-at-the-source' },
    });
    const result = await ingestBatch(deps, [{ raw: fixed, source: 'fix' }]);
    expect(result).toMatchObject({ stored: 1, projected: 1, projectionFailures: 0 });
    expect(await indexedIds()).toEqual(['A0', 'B1', 'C1']);
    expect(await listProjectionFailures(database.db)).toEqual([]);
  });

  it('lets an operator release a failure so the next sweep tries again (after a fix)', async () => {
    await appendEvents(database.db, poisonEvents('D0'));
    expect((await sweepLaggingPlaces(deps)).refused).toHaveLength(1);
    expect(await releaseProjectionFailures(database.db, ['D0'])).toEqual(['D0']);
    expect(await findLaggingPlaceIds(database.db, { limit: 10 })).toEqual(['D0']);
    // Still refused (nothing was fixed): recorded again, attempts counted from a fresh row.
    expect((await sweepLaggingPlaces(deps)).refused).toHaveLength(1);
    expect((await listProjectionFailures(database.db)).map((row) => row.placeId)).toEqual(['D0']);
  });

  it('lists projection failures and retries them from the operator command', async () => {
    const env = { DATABASE_URL: database.url, ELASTICSEARCH_INDEX: alias, SITE_ORIGIN: SITE };
    const list = startProcess('packages/operator/src/dead-letters.cli.ts', ['projections'], env);
    expect(await list.exited).toBe(0);
    expect(list.output()).toMatch(/^D0\t\S+\tversion 2\t1 attempts\t400 \w+_exception\t/m);
    expect(list.output()).toMatch(/1 projection failures \(\w+_exception: 1\)/);

    const retry = startProcess(
      'packages/operator/src/dead-letters.cli.ts',
      ['retry-projections', '--all'],
      env,
    );
    expect(await retry.exited).toBe(1);
    expect(retry.output()).toMatch(/place D0: still refused \(400/);
    expect(retry.output()).toMatch(/retried 1 places: 0 projected, 1 still refused/);
  });

  it('keeps a batch’s dead letters and events when the index is down (recorded before projection)', async () => {
    const down = createSearchClient(`http://127.0.0.1:${await freePort()}`, {
      timeoutMs: 500,
      maxRetries: 0,
    });
    const items = [
      { raw: crawled('E1', 1, '2026-01-01T10:00:00Z'), source: 'outage:1' },
      { raw: { eventId: 'bad', placeId: 'E1' }, source: 'outage:2' },
    ];
    try {
      await expect(ingestBatch({ ...deps, search: { client: down, alias } }, items)).rejects.toThrow();
    } finally {
      await down.close();
    }
    const letters = await listDeadLetters(database.db);
    expect(letters.map((letter) => letter.source)).toEqual(['outage:2']);
    expect(await findLaggingPlaceIds(database.db, { limit: 10, among: ['E1'] })).toEqual(['E1']);
    // The retry, once the index is back, finishes the projection and records nothing twice.
    expect(await ingestBatch(deps, items)).toMatchObject({ stored: 0, duplicates: 1, projected: 1 });
    expect(await listDeadLetters(database.db)).toHaveLength(1);
  });

  it('reindexes around a place set aside (it is neither copied nor expected), the rest is copied', async () => {
    expect((await listProjectionFailures(database.db)).map((row) => row.placeId)).toEqual(['D0']);
    const summary = await reindex({ db: database.db, client: search.client, alias, siteOrigin: SITE });
    expect(summary.indexedCount).toBe(summary.servedCount);
    const ids = await indexedIds();
    expect(ids).not.toContain('D0');
    expect(ids).toEqual(expect.arrayContaining(['A0', 'B1', 'C1']));
  });
});
