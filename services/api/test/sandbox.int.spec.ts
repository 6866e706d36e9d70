import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHANGES_CURSOR_REASONS,
  PAGE_LANGUAGES,
  type ApiKeyMode,
  type ChangesPage,
  type PlaceState,
} from '@directory/domain';
import { SITE_ORIGIN, placeState, storeServedPlaces } from '@directory/testing';
import { createApiHarness, createCaller, type ApiHarness, type Caller } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

/**
 * Sandbox keys (`dk_test_`) read the sandbox dataset and live keys the live one, through every route:
 * search, one record by id or profile URL, batch get (both forms), the changes feed, cities and
 * suggestions. Both datasets hold a record under the same id with different names, so an answer shows
 * which dataset it came from, not only whether an id was filtered out.
 */

const profileUrl = (slug: string, city: string) =>
  `${SITE_ORIGIN}/de/${PAGE_LANGUAGES.de}/de/${city}/${slug}`;

type Dataset = {
  mode: ApiKeyMode;
  states: PlaceState[];
  sharedName: string;
  onlyId: string;
  onlyName: string;
  onlySlug: string;
  citySlug: string;
  /** The country whose feed this mode's spec follows as records are added. */
  feedCountry: 'es' | 'it';
};

function datasetOf(
  mode: ApiKeyMode,
  sharedName: string,
  only: string,
  [city, citySlug]: [string, string],
  feedCountry: Dataset['feedCountry'],
): Dataset {
  const onlyId = `de-${mode}-only`;
  const onlySlug = `praxis-nur-${mode}`;
  return {
    mode,
    sharedName,
    onlyId,
    onlyName: only,
    onlySlug,
    citySlug,
    feedCountry,
    states: [
      placeState({ id: 'de-shared', name: sharedName, profileSlug: 'praxis-gemeinsam' }),
      placeState({ id: onlyId, name: only, city, citySlug, profileSlug: onlySlug }),
    ],
  };
}

const LIVE = datasetOf(
  'live',
  'Praxis Lebendig Gemeinsam',
  'Praxis Nur Lebendig',
  ['Hamburg', 'hamburg'],
  'es',
);
const SANDBOX = datasetOf(
  'test',
  'Praxis Sandkasten Gemeinsam',
  'Praxis Nur Sandkasten',
  ['Köln', 'koeln'],
  'it',
);

describe('sandbox keys and live keys read their own datasets, never the other', () => {
  let harness: ApiHarness;
  let call: Caller;
  const secrets: Record<ApiKeyMode, string> = { live: '', test: '' };

  const storeIn = (dataset: Dataset, states: PlaceState[]) =>
    dataset.mode === 'live'
      ? storeServedPlaces(
          { db: harness.database.db, client: harness.search.client, alias: harness.alias },
          states,
        )
      : storeServedPlaces(
          { db: harness.sandbox.database.db, client: harness.search.client, alias: harness.sandbox.alias },
          states,
        );

  beforeAll(async () => {
    harness = await createApiHarness('api-sandbox');
    call = await createCaller(await harness.newApp());
    secrets.live = (await harness.createKey('sandbox@example.com', 'live', 'live')).secret;
    secrets.test = (await harness.createKey('sandbox@example.com', 'test', 'test')).secret;
    await storeIn(LIVE, LIVE.states);
    await storeIn(SANDBOX, SANDBOX.states);
  });
  afterAll(() => harness.close());

  const get = (mode: ApiKeyMode, url: string) => call({ url, headers: { 'x-api-key': secrets[mode] } });
  const ok = async <T>(mode: ApiKeyMode, url: string): Promise<T> => {
    const response = await get(mode, url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  type Named = { id: string; name: string };
  const byId = (records: Named[]) => Object.fromEntries(records.map((record) => [record.id, record.name]));

  describe.each([
    { own: LIVE, other: SANDBOX },
    { own: SANDBOX, other: LIVE },
  ])('a $own.mode key', ({ own, other }) => {
    const mode = own.mode;
    const expected = { 'de-shared': own.sharedName, [own.onlyId]: own.onlyName };

    it('finds only its own records in search', async () => {
      const page = await ok<{ doctors: Named[] }>(mode, '/api/v1/doctors?country=de&limit=50');
      expect(byId(page.doctors)).toEqual(expected);
      const named = await ok<{ doctors: Named[] }>(
        mode,
        `/api/v1/doctors?country=de&q=${encodeURIComponent(other.onlyName)}`,
      );
      expect(named.doctors.map((doctor) => doctor.id)).not.toContain(other.onlyId);
    });

    it("gets its own records by id and profile URL, and the other dataset's are not found", async () => {
      const record = (idOrUrl: string) =>
        ok<{ doctor: Named }>(mode, `/api/v1/doctors/${encodeURIComponent(idOrUrl)}`);
      expect((await record('de-shared')).doctor.name).toBe(own.sharedName);
      expect((await record(own.onlyId)).doctor.name).toBe(own.onlyName);
      expect((await record(profileUrl(own.onlySlug, own.citySlug))).doctor.id).toBe(own.onlyId);
      expectProblem(await get(mode, `/api/v1/doctors/${other.onlyId}`), 404);
      const otherUrl = profileUrl(other.onlySlug, other.citySlug);
      expectProblem(await get(mode, `/api/v1/doctors/${encodeURIComponent(otherUrl)}`), 404);
    });

    it('batch gets only its own records; the other dataset’s ids come back missing (both forms)', async () => {
      const ids = ['de-shared', other.onlyId, own.onlyId].join(',');
      for (const url of [`/api/v1/doctors:batchGet?ids=${ids}`, `/api/v1/doctors?ids=${ids}`]) {
        const batch = await ok<{ doctors: Named[]; missing: string[] }>(mode, url);
        expect(byId(batch.doctors)).toEqual(expected);
        expect(batch.missing).toEqual([other.onlyId]);
      }
    });

    it('lists only its own cities and suggests only its own records', async () => {
      const cities = await ok<{ cities: Array<{ slug: string }> }>(mode, '/api/v1/cities?country=de');
      expect(cities.cities.map((city) => city.slug).sort()).toEqual(['berlin', own.citySlug].sort());
      const suggestions = await ok<{ suggestions: Array<{ type: string; id?: string }> }>(
        mode,
        '/api/v1/suggest?country=de&q=praxis',
      );
      const doctorIds = suggestions.suggestions.flatMap((item) => (item.type === 'doctor' ? [item.id] : []));
      expect(doctorIds.sort()).toEqual(['de-shared', own.onlyId].sort());
    });

    it('follows a changes feed of its own dataset only, at the start and afterwards', async () => {
      const start = await ok<ChangesPage>(mode, '/api/v1/changes?country=de&limit=100');
      expect(Object.fromEntries(start.changes.map((change) => [change.id, change.doctor?.name]))).toEqual(
        expected,
      );

      // Afterwards (in a country of its own, so the other specs' datasets stay as they are): a record
      // added to the other dataset never reaches this feed; one added to this dataset does.
      const followed = await ok<ChangesPage>(mode, `/api/v1/changes?country=${own.feedCountry}&limit=100`);
      expect(followed.changes).toEqual([]);
      const added = (dataset: Dataset) =>
        placeState({
          id: `${own.feedCountry}-${dataset.mode}-added`,
          name: `Praxis Neu ${dataset.mode}`,
          country: own.feedCountry,
        });
      await storeIn(other, [added(other)]);
      await storeIn(own, [added(own)]);
      const since = encodeURIComponent(followed.page.nextCursor);
      const next = await ok<ChangesPage>(mode, `/api/v1/changes?country=${own.feedCountry}&since=${since}`);
      expect(next.changes.map((change) => change.id)).toEqual([`${own.feedCountry}-${own.mode}-added`]);

      // Its cursors are bound to its mode: the other mode's key gets the 400 of an unusable cursor, for a
      // feed cursor and a snapshot cursor alike (a live one is the form every cursor had before modes).
      const snapshotPage = await ok<ChangesPage>(mode, '/api/v1/changes?country=de&limit=1');
      expect(snapshotPage.page.hasMore).toBe(true);
      for (const [country, cursor] of [
        [own.feedCountry, next.page.nextCursor],
        ['de', snapshotPage.page.nextCursor],
      ] as const) {
        const url = `/api/v1/changes?country=${country}&since=${encodeURIComponent(cursor)}`;
        const refused = expectProblem(await get(other.mode, url), 400);
        expect(refused.errors).toEqual([
          { parameter: 'since', reason: CHANGES_CURSOR_REASONS.otherMode[own.mode] },
        ]);
        expect((await get(mode, url)).statusCode).toBe(200);
      }
    });
  });

  it("shows a sandbox key's own prefix on /key", async () => {
    const { key } = await ok<{ key: { prefix: string } }>('test', '/api/v1/key');
    expect(key.prefix.startsWith('dk_test_')).toBe(true);
  });

  it("gives sandbox requests an account ceiling of their own: they never spend the live keys'", async () => {
    const limited = await createCaller(await harness.newApp({ accountMax: 2 }));
    const account = 'ceiling@example.com';
    const live = (await harness.createKey(account, 'live', 'live')).secret;
    const test = (await harness.createKey(account, 'test', 'test')).secret;
    const ask = (secret: string) => limited({ url: '/api/v1/key', headers: { 'x-api-key': secret } });
    expect((await ask(live)).statusCode).toBe(200);
    expect((await ask(live)).statusCode).toBe(200);
    expectProblem(await ask(live), 429);
    // The account's live ceiling is spent; its sandbox requests count apart, against a ceiling as large.
    expect((await ask(test)).statusCode).toBe(200);
    expect((await ask(test)).statusCode).toBe(200);
    expectProblem(await ask(test), 429);
  });
});
