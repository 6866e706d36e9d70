import fc from 'fast-check';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceState } from '@directory/domain';
import { recordFeedClock } from '@directory/event-store';
import { placeState, storeServedPlaces } from '@directory/testing';
import { fhirValidator } from '../../../packages/fhir/test/support/fhir-validator.js';
import { createApiHarness, type ApiHarness } from './support/api-harness.js';

/**
 * history-type and history-instance (IHE mCSD ITI-91) over the real store and feed: the changes feed as
 * history Bundles (PUT, PUT, DELETE for a record created, changed and no longer served), paging by next
 * links, the instance history's current version, and a property: following next from a _since while
 * records are written never skips a change.
 */

type Entry = {
  fullUrl: string;
  resource?: { resourceType: string; id: string; name?: string; meta: { versionId: string } };
  request: { method: 'PUT' | 'DELETE'; url: string };
  response: { status: string; etag?: string };
};
type HistoryBundle = {
  resourceType: 'Bundle';
  type: string;
  total?: number;
  link: Array<{ relation: string; url: string }>;
  entry?: Entry[];
};
type Outcome = { resourceType: 'OperationOutcome'; issue: Array<{ diagnostics?: string }> };

describe('/fhir/R4 history', () => {
  let harness: ApiHarness;
  let app: FastifyInstance;
  let secret: string;

  beforeAll(async () => {
    harness = await createApiHarness('api-fhir-history');
    app = await harness.newApp();
    ({ secret } = await harness.createKey());
  });
  afterAll(() => harness.close());

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { 'x-api-key': secret } });
  const bundleAt = async (url: string): Promise<HistoryBundle> => {
    const response = await get(url);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/fhir\+json/);
    return response.json<HistoryBundle>();
  };
  /** A link's URL as a path under the app (links are absolute). */
  const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
  const linkOf = (bundle: HistoryBundle, relation: string) =>
    bundle.link.find((link) => link.relation === relation)?.url;
  const store = (states: PlaceState[]) =>
    storeServedPlaces(
      { db: harness.database.db, client: harness.search.client, alias: harness.alias },
      states,
    );
  /** An instant after every change so far, on the feed's clock (the database's). */
  async function feedInstant(): Promise<string> {
    await recordFeedClock(harness.database.db);
    const { rows } = await sql<{ at: Date }>`select clock_timestamp() as at`.execute(harness.database.db);
    return rows[0]?.at.toISOString() ?? '';
  }
  const summary = (bundle: HistoryBundle) =>
    (bundle.entry ?? []).map((entry) => [
      entry.request.method,
      entry.request.url,
      entry.resource?.meta.versionId ?? null,
    ]);

  it('shows a record created, changed and no longer served as PUT, PUT, DELETE, following next', async () => {
    const validate = await fhirValidator();
    const since = await feedInstant();
    const first = `/fhir/R4/Location/_history?address-country=it&_since=${encodeURIComponent(since)}&_count=2`;
    await store([placeState({ id: 'hist-a', name: 'Studio A', country: 'it', version: 1 })]);
    const created = await bundleAt(first);
    expect(created.type).toBe('history');
    expect(summary(created)).toEqual([['PUT', 'Location/hist-a', '1']]);
    expect(created.entry?.[0]?.response).toMatchObject({ status: '200 OK', etag: 'W/"1"' });
    expect(validate(created).errors).toEqual([]);
    const afterCreate = linkOf(created, 'next');
    expect(afterCreate).toContain('_cursor=');
    expect(afterCreate).toContain('_since=');

    // Nothing new yet: an empty page without next; its self link is where to ask again.
    const idle = await bundleAt(pathOf(afterCreate ?? ''));
    expect(idle.entry).toBeUndefined();
    expect(linkOf(idle, 'next')).toBeUndefined();
    expect(linkOf(idle, 'self')).toBe(afterCreate);

    await store([placeState({ id: 'hist-a', name: 'Studio A (nuovo)', country: 'it', version: 2 })]);
    const changed = await bundleAt(pathOf(afterCreate ?? ''));
    expect(summary(changed)).toEqual([['PUT', 'Location/hist-a', '2']]);
    expect(changed.entry?.[0]?.resource?.name).toBe('Studio A (nuovo)');

    await store([
      placeState({ id: 'hist-a', name: 'Studio A', country: 'it', suppressed: true, version: 3 }),
    ]);
    const removed = await bundleAt(pathOf(linkOf(changed, 'next') ?? ''));
    expect(summary(removed)).toEqual([['DELETE', 'Location/hist-a', null]]);
    expect(removed.entry?.[0]).not.toHaveProperty('resource');
    expect(removed.entry?.[0]?.response.status).toBe('204 No Content');
    expect(validate(removed).errors).toEqual([]);
  });

  it('pages with _count, each change once, and starts from what is served now without _since', async () => {
    const ids = ['page-a', 'page-b', 'page-c', 'page-d', 'page-e'];
    await store(ids.map((id) => placeState({ id, name: `Clinique ${id}`, country: 'fr' })));
    await store([placeState({ id: 'page-gone', name: 'Gone', country: 'fr', suppressed: true })]);
    const seen: string[] = [];
    let url: string | undefined = '/fhir/R4/HealthcareService/_history?address-country=fr&_count=2';
    for (let guard = 0; url !== undefined && guard < 20; guard += 1) {
      const page = await bundleAt(url);
      expect((page.entry ?? []).length).toBeLessThanOrEqual(2);
      for (const entry of page.entry ?? []) {
        expect(entry.request.method).toBe('PUT');
        expect(entry.resource?.resourceType).toBe('HealthcareService');
        seen.push(entry.resource?.id ?? '');
      }
      const next = linkOf(page, 'next');
      url = next === undefined ? undefined : pathOf(next);
    }
    expect(url).toBeUndefined();
    expect(seen).toEqual(ids);
  });

  it('the instance history is the current version only', async () => {
    await store([
      placeState({
        id: 'inst-a',
        name: 'Praxis Inst',
        version: 5,
        updatedAt: '2026-10-01T08:30:00.000Z',
      }),
    ]);
    const bundle = await bundleAt('/fhir/R4/Organization/inst-a/_history');
    expect(bundle).toMatchObject({ type: 'history', total: 1 });
    expect(summary(bundle)).toEqual([['PUT', 'Organization/inst-a', '5']]);
    expect((await fhirValidator())(bundle).errors).toEqual([]);
    const later = await bundleAt('/fhir/R4/Organization/inst-a/_history?_since=2026-10-02T00:00:00Z');
    expect(later).toMatchObject({ total: 0 });
    expect(later.entry).toBeUndefined();
    const earlier = await bundleAt(
      '/fhir/R4/Organization/inst-a/_history?_since=2026-10-01T10:00:00%2B02:00',
    );
    expect(earlier.total).toBe(1);
    expect((await get('/fhir/R4/Organization/no-such/_history')).statusCode).toBe(404);
  });

  it('refuses a missing country, a _since without offset and a tampered cursor, naming them', async () => {
    const diagnostics = async (url: string) => {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      return response
        .json<Outcome>()
        .issue.slice(1)
        .map((issue) => issue.diagnostics?.split(':')[0]);
    };
    expect(await diagnostics('/fhir/R4/Location/_history')).toEqual(['address-country']);
    expect(await diagnostics('/fhir/R4/Location/_history?address-country=it&_since=2026-11-01')).toEqual([
      '_since',
    ]);
    expect(await diagnostics('/fhir/R4/Location/_history?address-country=it&_cursor=abc.def')).toEqual([
      '_cursor',
    ]);
    // A cursor of another dataset's history.
    const page = await bundleAt('/fhir/R4/Location/_history?address-country=fr&_count=1');
    const cursor = new URL(linkOf(page, 'next') ?? '').searchParams.get('_cursor') ?? '';
    expect(
      await diagnostics(
        `/fhir/R4/Location/_history?address-country=it&_cursor=${encodeURIComponent(cursor)}`,
      ),
    ).toEqual(['_cursor']);
    expect(
      (await app.inject({ method: 'GET', url: '/fhir/R4/Location/_history?address-country=it' })).statusCode,
    ).toBe(401);
  });

  it('following next from a _since never skips a change, whatever writes come between page reads', async () => {
    const places = ['p0', 'p1', 'p2', 'p3'];
    type Step = { kind: 'write'; place: string; serve: boolean } | { kind: 'read' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({
        kind: fc.constant('write' as const),
        place: fc.constantFrom(...places),
        serve: fc.boolean(),
      }),
      fc.constant({ kind: 'read' as const }),
    );
    // fast-check prints the seed and path of a failing run; pass both to fc.assert to replay it.
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 3 }),
        async (steps, count) => {
          run += 1;
          const idOf = (place: string) => `prop-${run}-${place}`;
          // Each place served before the start, so the feed has something to leave out.
          const versions = new Map(places.map((place) => [place, 1]));
          await store(
            places.map((place) => placeState({ id: idOf(place), name: 'v1', country: 'pt', version: 1 })),
          );
          const since = await feedInstant();
          let url = `/fhir/R4/Location/_history?address-country=pt&_count=${count}&_since=${encodeURIComponent(since)}`;
          // Per place: what the reader received, with the read it came in; and each write with the read before it.
          const delivered: Array<{ place: string; version: number | 'delete'; read: number }> = [];
          const writes: Array<{
            place: string;
            version: number;
            serve: boolean;
            afterRead: number;
            changes: boolean;
          }> = [];
          const servedNow = new Map(places.map((place) => [place, true]));
          let reads = 0;
          const readPage = async () => {
            reads += 1;
            const page = await bundleAt(url);
            for (const entry of page.entry ?? []) {
              const place = places.find((candidate) => entry.request.url === `Location/${idOf(candidate)}`);
              if (place === undefined) continue;
              delivered.push({
                place,
                version:
                  entry.request.method === 'DELETE' ? 'delete' : Number(entry.resource?.meta.versionId),
                read: reads,
              });
            }
            // Follow next; without one, the self link is where to ask again later.
            url = pathOf(linkOf(page, 'next') ?? linkOf(page, 'self') ?? '');
            return page.entry !== undefined;
          };
          for (const action of steps) {
            if (action.kind === 'read') {
              await readPage();
              continue;
            }
            const version = (versions.get(action.place) ?? 1) + 1;
            versions.set(action.place, version);
            await store([
              placeState({
                id: idOf(action.place),
                name: `v${version}`,
                country: 'pt',
                version,
                ...(action.serve ? {} : { suppressed: true }),
              }),
            ]);
            // Removing a record that is not served changes nothing a reader sees: the feed has no entry.
            const changes = action.serve || servedNow.get(action.place) === true;
            servedNow.set(action.place, action.serve);
            writes.push({ place: action.place, version, serve: action.serve, afterRead: reads, changes });
          }
          // Drain: until a page brings nothing.
          for (let guard = 0; guard < 50 && (await readPage()); guard += 1);

          // Every write reached the reader, at its state or a newer one, in a read after it.
          for (const write of writes.filter((candidate) => candidate.changes)) {
            const later = writes.filter(
              (other) => other.place === write.place && other.version >= write.version,
            );
            const covered = delivered.some(
              (entry) =>
                entry.place === write.place &&
                entry.read > write.afterRead &&
                (entry.version === 'delete'
                  ? later.some((other) => !other.serve)
                  : entry.version >= write.version),
            );
            expect(covered, `${JSON.stringify(write)} in ${JSON.stringify(delivered)}`).toBe(true);
          }
          // The reader's mirror is what is served now.
          const mirror = new Map<string, number>();
          for (const entry of delivered) {
            if (entry.version === 'delete') mirror.delete(entry.place);
            else mirror.set(entry.place, entry.version);
          }
          const touched = new Set(writes.map((write) => write.place));
          for (const place of touched) {
            const last = writes.filter((write) => write.place === place).at(-1);
            expect(mirror.get(place), place).toBe(last?.serve === true ? last.version : undefined);
          }
        },
      ),
      { numRuns: 8, verbose: true },
    );
  }, 240_000);
});
