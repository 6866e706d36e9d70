import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FEED_START,
  encodeChangesCursor,
  encodeCursor,
  type ChangesPage,
  type PlaceState,
} from '@directory/domain';
import { feedFenceAt, recordFeedClock } from '@directory/event-store';
import { placeState, storeServedPlaces } from '@directory/testing';
import {
  createApiHarness,
  createCaller,
  CURSOR_SECRET,
  type ApiHarness,
  type Caller,
} from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

describe('GET /api/v1/changes (changes feed)', () => {
  let harness: ApiHarness;
  let call: Caller;
  let secret: string;

  beforeAll(async () => {
    harness = await createApiHarness('api-changes');
    call = await createCaller(await harness.newApp());
    ({ secret } = await harness.createKey());
  });
  afterAll(() => harness.close());

  const get = (query: string) => call({ url: `/api/v1/changes?${query}`, headers: { 'x-api-key': secret } });
  const page = async (query: string): Promise<ChangesPage> => {
    const response = await get(query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ChangesPage>();
  };
  const badParameters = async (query: string) =>
    expectProblem(await get(query), 400).errors.map((error) => error.parameter);

  const store = (states: PlaceState[]) =>
    storeServedPlaces(
      { db: harness.database.db, client: harness.search.client, alias: harness.alias },
      states,
    );

  /** Reads the feed to its end from a cursor; returns the changes and the cursor to resume from. */
  async function readAll(country: string, since?: string, limit = 2) {
    const changes: ChangesPage['changes'] = [];
    let cursor = since;
    for (let guard = 0; guard < 100; guard += 1) {
      const suffix = cursor === undefined ? '' : `&since=${encodeURIComponent(cursor)}`;
      const result = await page(`country=${country}&limit=${limit}${suffix}`);
      expect(result.page.count).toBe(result.changes.length);
      changes.push(...result.changes);
      cursor = result.page.nextCursor;
      if (!result.page.hasMore) return { changes, cursor };
    }
    throw new Error('the feed did not end');
  }

  it('starts empty, and its cursor stays put while nothing changes', async () => {
    const first = await page('country=pt');
    expect(first.changes).toEqual([]);
    expect(first.page).toMatchObject({ count: 0, hasMore: false });
    expect(first.page.nextCursor.length).toBeGreaterThan(0);
    const again = await page(`country=pt&since=${encodeURIComponent(first.page.nextCursor)}`);
    expect(again.page.nextCursor).toBe(first.page.nextCursor);
    expect(again.changes).toEqual([]);
  });

  it('lists served records as the records get returns, resumes, and shows a suppression as delete', async () => {
    const served = ['chg-a', 'chg-b', 'chg-c'].map((id) =>
      placeState({ id, name: `Praxis ${id}`, country: 'it' }),
    );
    const neverServed = placeState({ id: 'chg-hidden', name: 'Hidden', country: 'it', published: false });
    await store([...served, neverServed]);

    const full = await readAll('it');
    expect(full.changes.map((change) => [change.id, change.change])).toEqual([
      ['chg-a', 'upsert'],
      ['chg-b', 'upsert'],
      ['chg-c', 'upsert'],
    ]);
    for (const change of full.changes) {
      const single = await call({ url: `/api/v1/doctors/${change.id}`, headers: { 'x-api-key': secret } });
      expect(single.json()).toEqual({ doctor: change.doctor });
    }

    // Nothing new yet: the same cursor comes back.
    const idle = await page(`country=it&since=${encodeURIComponent(full.cursor ?? '')}`);
    expect(idle).toEqual({ changes: [], page: { count: 0, hasMore: false, nextCursor: full.cursor } });

    const suppressed = placeState({
      id: 'chg-b',
      name: 'Praxis chg-b',
      country: 'it',
      suppressed: true,
      version: 2,
    });
    const renamed = placeState({ id: 'chg-c', name: 'Praxis C (neu)', country: 'it', version: 2 });
    await store([suppressed, renamed]);
    const next = await readAll('it', full.cursor, 1);
    expect(next.changes.map((change) => [change.id, change.change, change.doctor?.name ?? null])).toEqual([
      ['chg-b', 'delete', null],
      ['chg-c', 'upsert', 'Praxis C (neu)'],
    ]);
    expect(next.cursor).not.toBe(full.cursor);

    // Another dataset's feed holds none of it.
    expect((await readAll('es')).changes).toEqual([]);
  });

  it('starts a new consumer from what is served now: nothing it removed before, a removal of what it got', async () => {
    const v1 = ['snap-a', 'snap-b', 'snap-c', 'snap-gone'].map((id) =>
      placeState({ id, name: `Praxis ${id}`, country: 'fr' }),
    );
    await store(v1);
    // Suppressed at the doctor's request before this consumer exists: a get says 404, and so must the feed.
    await store([
      placeState({ id: 'snap-gone', name: 'Praxis snap-gone', country: 'fr', suppressed: true, version: 2 }),
    ]);
    const gone = await call({ url: '/api/v1/doctors/snap-gone', headers: { 'x-api-key': secret } });
    expect(gone.statusCode).toBe(404);

    const start = await readAll('fr');
    expect(start.changes.map((change) => [change.id, change.change])).toEqual([
      ['snap-a', 'upsert'],
      ['snap-b', 'upsert'],
      ['snap-c', 'upsert'],
    ]);
    expect(JSON.stringify(start.changes)).not.toContain('snap-gone');

    // Received in the snapshot, then suppressed: the consumer is told.
    await store([
      placeState({ id: 'snap-b', name: 'Praxis snap-b', country: 'fr', suppressed: true, version: 2 }),
    ]);
    const next = await readAll('fr', start.cursor);
    expect(next.changes).toEqual([{ id: 'snap-b', change: 'delete', doctor: null }]);

    // A cursor issued before snapshots existed (the start of the feed) reads the feed's history as it did.
    const old = encodeChangesCursor(
      { kind: 'feed', position: FEED_START, shown: null, timed: false },
      'fr',
      CURSOR_SECRET,
    );
    const history = await readAll('fr', old, 10);
    expect(history.changes.map((change) => [change.id, change.change])).toEqual([
      ['snap-a', 'upsert'],
      ['snap-c', 'upsert'],
      ['snap-gone', 'delete'],
      ['snap-b', 'delete'],
    ]);
  });

  it('answers a snapshot page the same while its dataset does not change, so If-None-Match gets 304', async () => {
    await store(['etag-a', 'etag-b'].map((id) => placeState({ id, name: `Praxis ${id}`, country: 'gb' })));
    const first = await get('country=gb&limit=1');
    const cursor = first.json<ChangesPage>().page.nextCursor;
    for (const query of ['country=gb&limit=1', `country=gb&limit=1&since=${encodeURIComponent(cursor)}`]) {
      const response = await get(query);
      expect(response.statusCode).toBe(200);
      const etag = String(response.headers.etag);
      // Writes elsewhere (another dataset, other databases of the server) leave this answer as it is.
      await store([
        placeState({ id: `etag-elsewhere-${etag.slice(1, 9)}`, name: 'Elsewhere', country: 'mx' }),
      ]);
      const again = await call({
        url: `/api/v1/changes?${query}`,
        headers: { 'x-api-key': secret, 'if-none-match': etag },
      });
      expect(again.statusCode, query).toBe(304);
    }
  });

  it('starts at an instant (API 1.3) with the changes after it, each dated, and stays dated on its cursors', async () => {
    const db = harness.database.db;
    await store([placeState({ id: 'when-old', name: 'Praxis old', country: 'es' })]);
    await recordFeedClock(db);
    // An instant between the fact and the next change (the database's clock, as the feed's). Instants
    // are read to the millisecond and the fact holds microseconds: within the fact's millisecond the
    // instant would come before it, and the feed would start at the beginning.
    const { rows } = await sql<{ at: Date }>`
      select clock_timestamp() as at from (select pg_sleep(0.002)) as wait`.execute(db);
    const instant = rows[0]?.at.toISOString() ?? '';
    await store([placeState({ id: 'when-new', name: 'Praxis new', country: 'es' })]);

    const fromInstant = await readAll('es', instant);
    // The feed starts at the fence of the note taken before the instant: every change at or above it.
    // A transaction open anywhere on the server while the note was taken (another test's, on the shared
    // server) holds the fence back, and then the change before the instant is in the feed too (the
    // documented conservative start); which one it is follows from the fence, read back.
    const fence = await feedFenceAt(db, new Date(instant));
    const { rows: old } = await sql<{ atOrAbove: boolean }>`
      select changed_xid >= ${fence}::xid8 as "atOrAbove" from places where place_id = 'when-old'`.execute(
      db,
    );
    expect(fence).not.toBe('0');
    const ids = fromInstant.changes.map((change) => change.id);
    expect(ids).toEqual(old[0]?.atOrAbove ? ['when-old', 'when-new'] : ['when-new']);
    const entry = fromInstant.changes.find((change) => change.id === 'when-new');
    expect(entry?.change).toBe('upsert');
    expect(Date.parse(entry?.changedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(instant));

    // The cursors of a dated feed stay dated, removals included.
    await store([
      placeState({ id: 'when-old', name: 'Praxis old', country: 'es', suppressed: true, version: 2 }),
    ]);
    const next = await readAll('es', fromInstant.cursor);
    expect(next.changes.map(({ changedAt, ...entry }) => [entry, typeof changedAt])).toEqual([
      [{ id: 'when-old', change: 'delete', doctor: null }, 'string'],
    ]);

    // Any UTC offset names the same instant; one before every clock fact starts at the feed's beginning.
    const offset = `${instant.slice(0, 19)}+00:00`;
    expect((await readAll('es', offset)).changes.map((change) => change.id)).toContain('when-new');
    const history = await readAll('es', '2000-01-01T00:00:00Z');
    expect(history.changes.map((change) => [change.id, change.change])).toEqual([
      ['when-new', 'upsert'],
      ['when-old', 'delete'],
    ]);
    expect(history.changes.every((change) => typeof change.changedAt === 'string')).toBe(true);

    // The 1.2 feed of the same dataset is undated, as it always was.
    const snapshot = await readAll('es');
    expect(snapshot.changes.every((change) => !('changedAt' in change))).toBe(true);
  });

  it('validates its parameters like search does, every bad one at once', async () => {
    expect(await badParameters('')).toEqual(['country']);
    expect(await badParameters('country=xx&limit=0')).toEqual(['country', 'limit']);
    expect(await badParameters('country=de&limit=1001')).toEqual(['limit']);
    expect(await badParameters('country=de&limit=ten')).toEqual(['limit']);
    expect(await badParameters('country=de&cursor=abc')).toEqual(['cursor']);
    expect(await badParameters('country=de&country=es')).toEqual(['country']);
    expect(await badParameters('country=de&since=')).toEqual(['since']);
    expect(await badParameters(`country=de&since=${'a'.repeat(2049)}`)).toEqual(['since']);
    for (const instant of ['2026-11-01T00:00:00', '2026-02-30T00:00:00Z', 'yesterday:noon']) {
      expect(await badParameters(`country=de&since=${encodeURIComponent(instant)}`), instant).toEqual([
        'since',
      ]);
    }
    expect((await page('country=DE&limit=1000')).page.count).toBe(0);
  });

  it('refuses a tampered, foreign or other-country cursor, and a search cursor, naming since', async () => {
    const at = { kind: 'feed', position: { xid: '5', placeId: 'chg-a' }, shown: null, timed: false } as const;
    const valid = encodeChangesCursor(at, 'de', CURSOR_SECRET);
    expect((await page(`country=de&since=${valid}`)).page.nextCursor).toBe(valid);
    const tampered = `${valid.slice(0, -2)}${valid.endsWith('AA') ? 'BB' : 'AA'}`;
    const foreign = encodeChangesCursor(at, 'de', 'another-deployment-secret-0123456789');
    const searchCursor = encodeCursor(
      { after: ['praxis', 'chg-a'], filters: { country: 'de' } },
      CURSOR_SECRET,
    );
    for (const since of [tampered, foreign, searchCursor, 'not-a-cursor']) {
      const problem = expectProblem(await get(`country=de&since=${encodeURIComponent(since)}`), 400);
      expect(problem.errors.map((error) => error.parameter)).toEqual(['since']);
    }
    const otherCountry = expectProblem(await get(`country=es&since=${valid}`), 400);
    expect(otherCountry.errors[0]?.reason).toMatch(/another country/);
  });

  it('needs a key, refuses a key in the URL, and carries the rate-limit headers', async () => {
    expectProblem(await call({ url: '/api/v1/changes?country=de' }), 401);
    const inQuery = await call({ url: `/api/v1/changes?country=de&api_key=${secret}` });
    expect(expectProblem(inQuery, 400).type).toBe('/problems/key-in-query');
    const ok = await get('country=de');
    expect(ok.headers['ratelimit-limit']).toBeDefined();
    expect(ok.headers['content-type']).toMatch(/^application\/json/);
  });
});
