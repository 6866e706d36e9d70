import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeEntry, ChangesPage, Doctor } from '@directory/domain';
import { ingestBatch, type ProjectorDependencies } from '@directory/ingest';
import { SITE_ORIGIN, crawled, lifecycle, published, waitForFeedFence } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';

// Merged records through the real pipeline (events validated, stored, folded, projected by the
// worker's own code) and every API surface that takes an id: single get, batch get, the changes feed,
// and a mirror that follows the feed with merges=true.

type Problem = { type: string; title: string; status: number; detail: string; errors: unknown[] };
type MergedProblem = Problem & { mergedInto?: string; mergedAt?: string };
type Batch = { doctors: Doctor[]; missing: string[]; merged?: Record<string, string> };

const PLACES = ['mg-m1', 'mg-m2', 'mg-m3', 'mg-l1', 'mg-l2', 'mg-u1', 'mg-x1'];
const MERGED_AT = '2026-02-01T00:00:00.000Z';

describe('merged records (API 1.4)', () => {
  let api: KeyedApi;
  let deps: ProjectorDependencies;
  let sequence = 0;

  beforeAll(async () => {
    api = await createKeyedApi('api-merges', []);
    const { harness } = api;
    deps = {
      db: harness.database.db,
      search: { client: harness.search.client, alias: harness.alias },
      siteOrigin: SITE_ORIGIN,
    };
  });
  afterAll(() => api.close());

  /** Ingests raw events as the worker does, then waits until search and the feed show them. */
  async function ingest(events: unknown[]) {
    const result = await ingestBatch(
      deps,
      events.map((raw) => ({ raw, source: `merges-spec:${(sequence += 1)}` })),
    );
    expect(result.deadLettered).toBe(0);
    await api.harness.search.client.indices.refresh({ index: api.harness.alias });
    await waitForFeedFence(api.harness.database.db);
  }

  const merge = (from: string, into: string, at = MERGED_AT) => lifecycle(from, 'place.merged', at, { into });
  const unmerge = (placeId: string, at: string) => lifecycle(placeId, 'place.unmerged', at);

  const problemOf = async (id: string): Promise<MergedProblem> => {
    const response = await api.get(`/api/v1/doctors/${id}`);
    expect(response.statusCode, response.body).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    return response.json<MergedProblem>();
  };

  /** Follows the feed to its end from `since` (a snapshot without it), as a consumer does. */
  async function readFeed(query: string, since?: string) {
    const changes: ChangeEntry[] = [];
    let cursor = since;
    for (let guard = 0; guard < 50; guard += 1) {
      const suffix = cursor === undefined ? '' : `&since=${encodeURIComponent(cursor)}`;
      const page = await api.getOk<ChangesPage>(`/api/v1/changes?country=de&limit=3&${query}${suffix}`);
      changes.push(...page.changes);
      cursor = page.page.nextCursor;
      if (!page.page.hasMore) return { changes, cursor };
    }
    throw new Error('the feed did not end');
  }

  /** A mirror kept by the feed: records by id, and where each merged-away id it held went. */
  const records = new Map<string, Doctor>();
  const forwards = new Map<string, string>();
  function apply(changes: ReadonlyArray<ChangeEntry>) {
    for (const change of changes) {
      if (change.change === 'upsert' && change.doctor !== null) {
        records.set(change.id, change.doctor);
        forwards.delete(change.id);
      } else {
        records.delete(change.id);
        if (change.change === 'merged' && change.mergedInto !== undefined) {
          forwards.set(change.id, change.mergedInto);
        }
      }
    }
  }
  /** Every record search serves in the dataset, paged as a client pages it. */
  async function pageSearch() {
    const served = new Map<string, Doctor>();
    let cursor: string | null = null;
    for (let guard = 0; guard < 50; guard += 1) {
      const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await api.getOk<{ doctors: Doctor[]; page: { nextCursor: string | null } }>(
        `/api/v1/doctors?country=de&limit=2${suffix}`,
      );
      for (const doctor of page.doctors) served.set(doctor.id, doctor);
      cursor = page.page.nextCursor;
      if (cursor === null) return served;
    }
    throw new Error('search did not end');
  }
  async function expectMirrorEqualsSearch() {
    const served = await pageSearch();
    expect([...records.keys()].sort()).toEqual([...served.keys()].sort());
    for (const [id, doctor] of records) expect(doctor).toEqual(served.get(id));
  }

  let cursor = '';

  it('serves every place before the merges, and a mirror starts from the snapshot', async () => {
    await ingest(
      PLACES.flatMap((id) => [crawled(id, 1, '2026-01-01T10:00:00Z'), published(id, '2026-01-01T11:00:00Z')]),
    );
    const start = await readFeed('merges=true');
    apply(start.changes);
    cursor = start.cursor;
    expect([...records.keys()].sort()).toEqual([...PLACES].sort());
    await expectMirrorEqualsSearch();
  });

  it('answers a merged-away id with a 404 naming the final survivor, and leaves other 404s as in 1.1', async () => {
    // U1's unmerge arrives first though it happened last: the fold orders by time, so U1 ends unmerged.
    await ingest([unmerge('mg-u1', '2026-03-01T00:00:00Z')]);
    await ingest([
      merge('mg-m2', 'mg-m1'),
      merge('mg-m3', 'mg-m2', '2026-02-02T00:00:00Z'),
      merge('mg-l1', 'mg-l2'),
      merge('mg-l2', 'mg-l1'),
      merge('mg-u1', 'mg-m1'),
      lifecycle('mg-x1', 'place.suppressed', '2026-02-01T00:00:00Z', { reason: 'owner request' }),
    ]);

    const m2 = await problemOf('mg-m2');
    expect(m2).toEqual({
      type: '/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'No current published record has this id.',
      errors: [],
      mergedInto: 'mg-m1',
      mergedAt: MERGED_AT,
    });
    // A chain resolves to its end; the date is the id's own merge.
    expect(await problemOf('mg-m3')).toMatchObject({
      mergedInto: 'mg-m1',
      mergedAt: '2026-02-02T00:00:00.000Z',
    });
    // A loop has no survivor, and an id never merged gets the 1.1 body: neither names one.
    for (const id of ['mg-l1', 'mg-l2', 'mg-x1', 'no-such-id']) {
      expect(Object.keys(await problemOf(id)).sort()).toEqual([
        'detail',
        'errors',
        'status',
        'title',
        'type',
      ]);
    }
    // A profile URL names a page, not an id: the page of a merged-away record (any language, through a
    // chain) is the survivor's; a looped one has no survivor and stays a plain 404.
    const pageOf = (lang: string, slug: string) =>
      `/api/v1/doctors/${encodeURIComponent(`${SITE_ORIGIN}/${lang}/${lang === 'de' ? 'aerzte' : 'doctors'}/de/berlin/praxis-${slug}`)}`;
    const survivor = await api.getOk<{ doctor: Doctor }>('/api/v1/doctors/mg-m1?fields=name,profileUrl');
    for (const page of [pageOf('de', 'mg-m2'), pageOf('en', 'mg-m3')]) {
      const byUrl = await api.getOk<{ doctor: Doctor }>(`${page}?fields=name,profileUrl`);
      expect(byUrl).toEqual(survivor);
    }
    const looped = await api.get(pageOf('de', 'mg-l1'));
    expect(looped.statusCode).toBe(404);
    expect(looped.json<MergedProblem>().mergedInto).toBeUndefined();
    expect((await api.getOk<{ doctor: Doctor }>('/api/v1/doctors/mg-m1')).doctor.id).toBe('mg-m1');
    expect((await api.getOk<{ doctor: Doctor }>('/api/v1/doctors/mg-u1')).doctor.id).toBe('mg-u1');
  });

  it('lists merged-away ids of a batch in merged, beside missing, and only then', async () => {
    const batch = await api.getOk<Batch>('/api/v1/doctors:batchGet?ids=mg-m2,mg-m1,mg-m3,mg-l1,no-such-id');
    expect(batch.doctors.map((doctor) => doctor.id)).toEqual(['mg-m1']);
    expect(batch.missing).toEqual(['mg-m2', 'mg-m3', 'mg-l1', 'no-such-id']);
    expect(batch.merged).toEqual({ 'mg-m2': 'mg-m1', 'mg-m3': 'mg-m1' });
    // Pages of merged-away records find the survivor, in request order; a looped page stays missing.
    const page = (slug: string) => encodeURIComponent(`${SITE_ORIGIN}/en/doctors/de/berlin/praxis-${slug}`);
    const pages = await api.getOk<Batch>(
      `/api/v1/doctors:batchGet?ids=mg-x2,${page('mg-m3')},mg-m2,${page('mg-l2')},${page('mg-m2')}`,
    );
    expect(pages.doctors.map((doctor) => doctor.id)).toEqual(['mg-m1']);
    expect(pages.missing).toEqual(['mg-x2', 'mg-m2', `${SITE_ORIGIN}/en/doctors/de/berlin/praxis-mg-l2`]);
    expect(pages.merged).toEqual({ 'mg-m2': 'mg-m1' });
    // The deprecated form answers the same bytes.
    const deprecated = await api.get('/api/v1/doctors?ids=mg-m2,mg-m1,mg-m3,mg-l1,no-such-id');
    const current = await api.get('/api/v1/doctors:batchGet?ids=mg-m2,mg-m1,mg-m3,mg-l1,no-such-id');
    expect(deprecated.body).toBe(current.body);
    // No merged-away id asked for: the 1.3 answer, without the key.
    const plain = await api.get('/api/v1/doctors:batchGet?ids=mg-m1,no-such-id,mg-l1');
    expect(Object.keys(plain.json<Batch>())).toEqual(['doctors', 'missing']);
  });

  it('tells a merge as merged only to a feed that asks, and the mirror re-keys and ends equal to search', async () => {
    const withMerges = await readFeed('merges=true', cursor);
    const plain = await readFeed('', cursor);
    const byId = (changes: ChangeEntry[]) => new Map(changes.map((change) => [change.id, change]));
    expect(byId(withMerges.changes).get('mg-m2')).toEqual({
      id: 'mg-m2',
      change: 'merged',
      doctor: null,
      mergedInto: 'mg-m1',
    });
    expect(byId(withMerges.changes).get('mg-m3')).toMatchObject({ change: 'merged', mergedInto: 'mg-m1' });
    expect(byId(withMerges.changes).get('mg-l1')).toEqual({ id: 'mg-l1', change: 'delete', doctor: null });
    expect(byId(withMerges.changes).get('mg-x1')).toEqual({ id: 'mg-x1', change: 'delete', doctor: null });
    // U1 was merged and unmerged in the end: nothing a consumer sees changed.
    expect(byId(withMerges.changes).has('mg-u1')).toBe(false);
    // Without merges=true: the deletes of 1.2, byte for byte.
    expect(plain.changes.map((change) => change.change)).not.toContain('merged');
    expect(JSON.stringify(byId(plain.changes).get('mg-m2'))).toBe(
      '{"id":"mg-m2","change":"delete","doctor":null}',
    );

    apply(withMerges.changes);
    cursor = withMerges.cursor;
    expect(Object.fromEntries(forwards)).toEqual({ 'mg-m2': 'mg-m1', 'mg-m3': 'mg-m1' });
    await expectMirrorEqualsSearch();
  });

  it('stores a merge into itself as a dead letter with its reason, and stores nothing else of it', async () => {
    const selfMerge = merge('mg-m1', 'mg-m1', '2026-05-01T00:00:00Z');
    const result = await ingestBatch(deps, [{ raw: selfMerge, source: 'merges-spec:self' }]);
    expect(result).toMatchObject({ stored: 0, deadLettered: 1 });
    const letters = await api.harness.database.db
      .selectFrom('dead_letters')
      .select(['event_id', 'reason'])
      .where('event_id', '=', selfMerge.eventId)
      .execute();
    expect(letters).toEqual([
      {
        event_id: selfMerge.eventId,
        reason: "payload.into: Expected another place than the event's own placeId",
      },
    ]);
    expect((await api.getOk<{ doctor: Doctor }>('/api/v1/doctors/mg-m1')).doctor.id).toBe('mg-m1');
  });

  it('restores both records on an unmerge, everywhere', async () => {
    await ingest([unmerge('mg-m2', '2026-04-01T00:00:00Z')]);
    expect((await api.getOk<{ doctor: Doctor }>('/api/v1/doctors/mg-m2')).doctor.id).toBe('mg-m2');
    expect((await api.getOk<{ doctor: Doctor }>('/api/v1/doctors/mg-m1')).doctor.id).toBe('mg-m1');
    // Its page is its own again.
    const page = encodeURIComponent(`${SITE_ORIGIN}/de/aerzte/de/berlin/praxis-mg-m2`);
    expect((await api.getOk<{ doctor: Doctor }>(`/api/v1/doctors/${page}`)).doctor.id).toBe('mg-m2');
    // M3 was merged into M2, which is its own record again: M3 now forwards there.
    expect(await problemOf('mg-m3')).toMatchObject({ mergedInto: 'mg-m2' });
    const batch = await api.getOk<Batch>('/api/v1/doctors:batchGet?ids=mg-m2,mg-m3');
    expect(batch).toMatchObject({ missing: ['mg-m3'], merged: { 'mg-m3': 'mg-m2' } });

    const after = await readFeed('merges=true', cursor);
    expect(after.changes.find((change) => change.id === 'mg-m2')).toMatchObject({ change: 'upsert' });
    apply(after.changes);
    expect(forwards.has('mg-m2')).toBe(false);
    await expectMirrorEqualsSearch();
  });
});
