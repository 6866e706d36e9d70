import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { placeState } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

/**
 * Facets over the real index, through the public route: the `facets` object beside the page, its
 * disjunctive counts (a facet applies every filter but its own), labels in `lang`, `facetLimit`, the
 * 400s, and the facet-value search `GET /api/v1/facets/{name}`. Every response is checked against the
 * OpenAPI document by the harness.
 */

type Value = { value: string; count: number; label?: string };
type Page = {
  doctors: Array<{ id: string }>;
  page: { count: number; hasMore: boolean; nextCursor: string | null };
  facets?: Record<string, Value[]>;
};

const berlin = { city: 'Berlin', citySlug: 'berlin' };
const munich = { city: 'München', citySlug: 'muenchen' };
const PLACES = [
  placeState({
    id: 'f-dent-berlin-1',
    name: 'A Zahnpraxis',
    ...berlin,
    primaryType: 'Zahnarzt',
    verified: true,
    languages: ['de', 'en'],
    insurance: ['gkv'],
    acceptingNewPatients: true,
  }),
  placeState({
    id: 'f-dent-berlin-2',
    name: 'B Zahnpraxis',
    ...berlin,
    primaryType: 'Zahnarzt',
    languages: ['de'],
    insurance: ['gkv', 'pkv'],
  }),
  placeState({
    id: 'f-dent-munich',
    name: 'C Zahnpraxis',
    ...munich,
    primaryType: 'Zahnarzt',
    verified: true,
  }),
  placeState({
    id: 'f-gp-berlin',
    name: 'D Hausarzt',
    ...berlin,
    primaryType: 'Allgemeinmedizin',
    languages: ['tr'],
  }),
  placeState({
    id: 'f-gp-munich',
    name: 'E Hausarzt',
    ...munich,
    primaryType: 'Allgemeinmedizin',
    verified: true,
  }),
  // Never counted: not served, or another dataset.
  placeState({ id: 'f-closed', name: 'F Geschlossen', ...berlin, primaryType: 'Zahnarzt', closed: true }),
  placeState({
    id: 'f-es',
    name: 'G Clínica',
    country: 'es',
    city: 'Madrid',
    citySlug: 'madrid',
    primaryType: 'Dentista',
  }),
];

// One harness and index for the file: both routes read the same places.
let api: KeyedApi;
beforeAll(async () => {
  api = await createKeyedApi('api-facets', PLACES);
});
afterAll(() => api.close());

describe('GET /api/v1/doctors with facets', () => {
  const facetsOf = async (query: string) =>
    (await api.getOk<Page>(`/api/v1/doctors?country=de&${query}`)).facets ?? {};

  it('counts each value over the served records of the dataset, labels in lang, most records first', async () => {
    const page = await api.getOk<Page>(
      '/api/v1/doctors?country=de&limit=1&lang=de&facets=specialty,city,verified,language,insurance,acceptingNewPatients,whatsapp,wheelchairAccessible',
    );
    expect(page.doctors).toHaveLength(1);
    expect(page.facets).toEqual({
      specialty: [
        { value: 'dentistry', count: 3, label: 'Zahnmedizin' },
        { value: 'general-practice', count: 2, label: 'Allgemeinmedizin' },
      ],
      city: [
        { value: 'berlin', count: 3, label: 'Berlin' },
        { value: 'muenchen', count: 2, label: 'München' },
      ],
      verified: [
        { value: 'true', count: 3 },
        { value: 'false', count: 2 },
      ],
      language: [
        { value: 'de', count: 2 },
        { value: 'en', count: 1 },
        { value: 'tr', count: 1 },
      ],
      insurance: [
        { value: 'gkv', count: 2, label: 'Gesetzliche Krankenversicherung' },
        { value: 'pkv', count: 1, label: 'Private Krankenversicherung' },
      ],
      // Unknown is no value: only the record whose source said.
      acceptingNewPatients: [{ value: 'true', count: 1 }],
      whatsapp: [{ value: 'false', count: 5 }],
      wheelchairAccessible: [],
    });
    // In the fixed order of the facet names, whatever the order asked.
    expect(Object.keys(page.facets ?? {})).toEqual([
      'specialty',
      'city',
      'verified',
      'whatsapp',
      'language',
      'acceptingNewPatients',
      'wheelchairAccessible',
      'insurance',
    ]);
    expect((await facetsOf('facets=specialty')).specialty?.[0]?.label).toBe('Dentistry');
  });

  describe('openNow, counted at the time of the request', () => {
    // Only the clock is set (every record opens Mondays 08:00-12:00 in Berlin); timers stay real.
    const at = (instant: string) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(instant));
    };
    afterEach(() => vi.useRealTimers());

    it('counts the records open then, with or without the openNow filter, in search and facet values', async () => {
      at('2026-03-02T09:30:00+01:00');
      expect((await facetsOf('facets=openNow,verified')).openNow).toEqual([{ value: 'true', count: 5 }]);
      // Its own filter is left out, as every facet's; verified=true applies to it.
      expect((await facetsOf('openNow=true&verified=true&facets=openNow')).openNow).toEqual([
        { value: 'true', count: 3 },
      ]);
      const values = await api.getOk<{ values: Value[] }>('/api/v1/facets/openNow?country=de');
      expect(values.values).toEqual([{ value: 'true', count: 5 }]);
      at('2026-03-02T13:30:00+01:00');
      expect((await facetsOf('facets=openNow')).openNow).toEqual([]);
      expect((await api.getOk<{ values: Value[] }>('/api/v1/facets/openNow?country=de')).values).toEqual([]);
    });
  });

  it("applies every filter but a facet's own to its counts", async () => {
    const facets = await facetsOf('specialty=dentistry&city=berlin&facets=specialty,city,verified');
    // The specialty facet ignores specialty=dentistry but keeps city=berlin.
    expect(facets.specialty).toEqual([
      { value: 'dentistry', count: 2, label: 'Dentistry' },
      { value: 'general-practice', count: 1, label: 'General practice' },
    ]);
    // The city facet ignores city=berlin but keeps specialty=dentistry.
    expect(facets.city).toEqual([
      { value: 'berlin', count: 2, label: 'Berlin' },
      { value: 'muenchen', count: 1, label: 'München' },
    ]);
    // A facet without a filter of its own counts under all of them: the page's records.
    expect(facets.verified).toEqual([
      { value: 'false', count: 1 },
      { value: 'true', count: 1 },
    ]);
    // Each count is what the search with that value finds.
    const found = await api.getOk<Page>('/api/v1/doctors?country=de&specialty=general-practice&city=berlin');
    expect(found.doctors.map((doctor) => doctor.id)).toEqual(['f-gp-berlin']);
    // q and the other non-facet filters apply to every facet.
    expect((await facetsOf('q=hausarzt&facets=specialty')).specialty).toEqual([
      { value: 'general-practice', count: 2, label: 'General practice' },
    ]);
  });

  it('answers every facet asked for, empty, in a dataset without records or insurance codes', async () => {
    const page = await api.getOk<Page>('/api/v1/doctors?country=mx&facets=insurance,specialty,verified');
    expect(page.facets).toEqual({ specialty: [], verified: [], insurance: [] });
    expect(await api.getOk('/api/v1/facets/insurance?country=mx')).toEqual({ values: [] });
  });

  it('keeps the first facetLimit values of each facet, 10 by default', async () => {
    expect((await facetsOf('facets=specialty,city&facetLimit=1')).city).toEqual([
      { value: 'berlin', count: 3, label: 'Berlin' },
    ]);
    const page = await api.getOk<Page>('/api/v1/doctors?country=de&facets=language');
    expect(page.facets?.language).toHaveLength(3);
  });

  it('answers a search without facets exactly as before', async () => {
    const response = await api.get('/api/v1/doctors?country=de&limit=2');
    expect(Object.keys(response.json<Page>())).toEqual(['doctors', 'page']);
    const withFacets = await api.getOk<Page>('/api/v1/doctors?country=de&limit=2&facets=city');
    expect(withFacets.doctors).toEqual(response.json<Page>().doctors);
    expect(withFacets.page).toEqual(response.json<Page>().page);
  });

  it('refuses unknown or repeated facet names and a bad facetLimit with 400 problem+json', async () => {
    const cases: Array<[string, string[]]> = [
      ['facets=openAt', ['facets']],
      ['facets=languages', ['facets']],
      ['facets=city,city', ['facets']],
      ['facets=', ['facets']],
      ['facets=city&facetLimit=0', ['facetLimit']],
      ['facets=city&facetLimit=101', ['facetLimit']],
      ['facets=city&facetLimit=x', ['facetLimit']],
      ['facetLimit=5', ['facetLimit']],
      ['facets=nope&facetLimit=1000', ['facets', 'facetLimit']],
      ['facets=city&facets=verified', ['facets']],
    ];
    for (const [query, parameters] of cases) {
      const problem = expectProblem(await api.get(`/api/v1/doctors?country=de&${query}`), 400);
      expect(
        problem.errors.map((error) => error.parameter),
        query,
      ).toEqual(parameters);
    }
    const [unknown] = expectProblem(await api.get('/api/v1/doctors?country=de&facets=nope'), 400).errors;
    expect(unknown?.reason).toContain('specialty, city, verified, whatsapp, language');
  });
});

describe('GET /api/v1/facets/{name}', () => {
  const values = async (path: string) =>
    (await api.getOk<{ values: Value[] }>(`/api/v1/facets/${path}`)).values;

  it('lists the values of a dataset with counts, narrowed by a folded prefix of value or label', async () => {
    expect(await values('city?country=de')).toEqual([
      { value: 'berlin', count: 3, label: 'Berlin' },
      { value: 'muenchen', count: 2, label: 'München' },
    ]);
    expect(await values('city?country=de&q=MUN')).toEqual([
      { value: 'muenchen', count: 2, label: 'München' },
    ]);
    expect(await values('specialty?country=de&q=zahn&lang=de')).toEqual([
      { value: 'dentistry', count: 3, label: 'Zahnmedizin' },
    ]);
    expect(await values('specialty?country=de&q=gen')).toEqual([
      { value: 'general-practice', count: 2, label: 'General practice' },
    ]);
    expect(await values('insurance?country=de&q=priv')).toEqual([
      { value: 'pkv', count: 1, label: 'Private Krankenversicherung' },
    ]);
    expect(await values('verified?country=de')).toEqual([
      { value: 'true', count: 3 },
      { value: 'false', count: 2 },
    ]);
    expect(await values('language?country=de&limit=1')).toEqual([{ value: 'de', count: 2 }]);
    expect(await values('city?country=es')).toEqual([{ value: 'madrid', count: 1, label: 'Madrid' }]);
    expect(await values('city?country=fr')).toEqual([]);
    expect(await values('specialty?country=de&q=nothing')).toEqual([]);
  });

  it('refuses an unknown facet and bad parameters with 400, and needs the key', async () => {
    const problem = expectProblem(await api.get('/api/v1/facets/openAt?limit=0&x=1'), 400);
    expect(problem.errors.map((error) => error.parameter)).toEqual(['name', 'x', 'country', 'limit']);
    expect(expectProblem(await api.get('/api/v1/facets/city?country=de&q=a&q=b'), 400).errors).toEqual([
      { parameter: 'q', reason: 'must be given once' },
    ]);
    expect(expectProblem(await api.call({ url: '/api/v1/facets/city?country=de' }), 401).status).toBe(401);
  });
});
