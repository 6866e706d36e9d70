import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEO_RADIUS_DEFAULT_M, type Doctor } from '@directory/domain';
import { placeState } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

type Record = Doctor & { distanceMeters?: number };
type Page = { doctors: Record[]; page: { count: number; hasMore: boolean; nextCursor: string | null } };

const CENTER = { latitude: 52.52, longitude: 13.405 };
const NEAR = `${CENTER.latitude},${CENTER.longitude}`;

/** Great-circle distance in metres (haversine on Elasticsearch's mean Earth radius): the test's reference. */
function haversineMeters(a: typeof CENTER, b: typeof CENTER): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.7714 * Math.asin(Math.sqrt(h));
}

// Places north of the centre at known distances (0.009° of latitude ≈ 1 km), two sharing a spot (order
// by id), one without a location, one in Hamburg, and one in Spain at the same coordinates.
const north = (km: number) => ({ latitude: CENTER.latitude + 0.009 * km, longitude: CENTER.longitude });
const PLACES = [
  placeState({ id: 'geo-c', name: 'Praxis C', location: north(3) }),
  placeState({ id: 'geo-a', name: 'Zahnarzt A', location: north(0.5) }),
  placeState({ id: 'geo-b2', name: 'Praxis B2', location: north(1.2) }),
  placeState({ id: 'geo-b1', name: 'Praxis B1', location: north(1.2) }),
  placeState({ id: 'geo-d', name: 'Praxis D', location: north(8), verified: true }),
  placeState({ id: 'geo-e', name: 'Praxis E', location: north(20) }),
  placeState({ id: 'geo-center', name: 'Mitte', location: CENTER }),
  placeState({ id: 'geo-none', name: 'Praxis ohne Ort', location: null }),
  placeState({
    id: 'geo-hamburg',
    name: 'Praxis Hamburg',
    city: 'Hamburg',
    citySlug: 'hamburg',
    location: { latitude: 53.5511, longitude: 9.9937 },
  }),
  placeState({
    id: 'geo-es',
    name: 'Clínica',
    country: 'es',
    city: 'Madrid',
    citySlug: 'madrid',
    location: CENTER,
  }),
  placeState({ id: 'geo-hidden', name: 'Praxis Geschlossen', closed: true, location: CENTER }),
];
const LOCATION = new Map(PLACES.map((state) => [state.placeId, state.observed?.location ?? null]));

describe('GET /api/v1/doctors with near and radius', () => {
  let api: KeyedApi;

  beforeAll(async () => {
    api = await createKeyedApi('api-geo', PLACES);
  });
  afterAll(() => api.close());

  const search = (query: string) => api.get(`/api/v1/doctors?${query}`);
  const page = (query: string) => api.getOk<Page>(`/api/v1/doctors?${query}`);
  const ids = (result: Page) => result.doctors.map((doctor) => doctor.id);

  it('returns the records within the default radius, nearest first (ties by id), each with its distance', async () => {
    const result = await page(`country=de&near=${NEAR}`);
    expect(ids(result)).toEqual(['geo-center', 'geo-a', 'geo-b1', 'geo-b2', 'geo-c', 'geo-d']);
    for (const doctor of result.doctors) {
      const location = LOCATION.get(doctor.id);
      if (!location) throw new Error(`no location for ${doctor.id}`);
      expect(Number.isInteger(doctor.distanceMeters)).toBe(true);
      expect(Math.abs((doctor.distanceMeters ?? -1) - haversineMeters(CENTER, location))).toBeLessThanOrEqual(
        1,
      );
      // The record is the Doctor, plus distanceMeters as the last key.
      expect(Object.keys(doctor).at(-1)).toBe('distanceMeters');
    }
    expect(result.doctors[0]?.distanceMeters).toBe(0);
    expect(
      result.doctors.every((doctor) => (doctor.distanceMeters ?? Infinity) <= GEO_RADIUS_DEFAULT_M),
    ).toBe(true);
  });

  it('limits to radius metres and combines with the other filters', async () => {
    expect(ids(await page(`country=de&near=${NEAR}&radius=1500`))).toEqual([
      'geo-center',
      'geo-a',
      'geo-b1',
      'geo-b2',
    ]);
    expect(ids(await page(`country=de&near=${NEAR}&radius=50000`))).toContain('geo-e');
    expect(ids(await page(`country=de&near=${NEAR}&radius=50000&verified=true`))).toEqual(['geo-d']);
    expect(ids(await page(`country=de&near=${NEAR}&q=praxis%20b1`))).toEqual(['geo-b1']);
    expect(ids(await page(`country=es&near=${NEAR}`))).toEqual(['geo-es']);
    expect(ids(await page(`country=de&city=hamburg&near=53.55,10`))).toEqual(['geo-hamburg']);
    // Nothing within 1 m of the North Pole.
    expect(await page(`country=de&near=90,0&radius=1`)).toEqual({
      doctors: [],
      page: { count: 0, hasMore: false, nextCursor: null },
    });
  });

  it('pages through every record exactly once, in distance order, with signed cursors', async () => {
    const all = ids(await page(`country=de&near=${NEAR}&radius=50000&limit=100`));
    expect(all).toHaveLength(7);
    for (const limit of [1, 2, 3]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const result: Page = await page(`country=de&near=${NEAR}&radius=50000&limit=${limit}${suffix}`);
        seen.push(...ids(result));
        cursor = result.page.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual(all);
    }
  });

  it('binds cursors to near and radius', async () => {
    const first = await page(`country=de&near=${NEAR}&limit=2`);
    const cursor = encodeURIComponent(first.page.nextCursor ?? '');
    expect(ids(await page(`country=de&near=${NEAR}&limit=2&cursor=${cursor}`))).toEqual(['geo-b1', 'geo-b2']);
    for (const query of [
      `country=de&cursor=${cursor}`,
      `country=de&near=52.5,13.405&cursor=${cursor}`,
      `country=de&near=${NEAR}&radius=9000&cursor=${cursor}`,
    ]) {
      const problem = expectProblem(await search(query), 400);
      expect(problem.errors.map((error) => error.parameter)).toEqual(['cursor']);
    }
    // And a name cursor is refused by a geo search.
    const byName = await page('country=de&limit=2');
    const nameCursor = encodeURIComponent(byName.page.nextCursor ?? '');
    expect(
      expectProblem(await search(`country=de&near=${NEAR}&cursor=${nameCursor}`), 400).errors,
    ).toHaveLength(1);
  });

  it('is described in /openapi.json: the parameters, the cities list and the search record, all open', async () => {
    type Schema = {
      properties?: { [name: string]: unknown };
      required?: string[];
      additionalProperties?: unknown;
    };
    type Document = {
      paths: {
        [path: string]: { get?: { parameters?: Array<{ name: string; in: string; required?: boolean }> } };
      };
      components: { schemas: { [name: string]: Schema } };
    };
    const document = (await api.call({ url: '/openapi.json' })).json<Document>();
    const parameters = document.paths['/api/v1/doctors']?.get?.parameters ?? [];
    expect(parameters.filter((parameter) => ['near', 'radius'].includes(parameter.name))).toEqual([
      expect.objectContaining({ name: 'near', required: false }),
      expect.objectContaining({ name: 'radius', required: false }),
    ]);
    // One schema for every search record (API 1.3): `fields` may leave out any field but `id`.
    const { SelectedSearchResult, Doctor, City, CityList } = document.components.schemas;
    expect(Object.keys(SelectedSearchResult?.properties ?? {})).toEqual(
      expect.arrayContaining([...Object.keys(Doctor?.properties ?? {}), 'distanceMeters']),
    );
    expect(SelectedSearchResult?.required).toEqual(['id']);
    // Published open like every response schema; the serializer still writes only the allowlist.
    expect(SelectedSearchResult?.additionalProperties).toBeUndefined();
    expect(City?.additionalProperties).toEqual({});
    expect(CityList?.additionalProperties).toEqual({});
    expect(
      (document.paths['/api/v1/cities']?.get?.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name),
    ).toEqual(['country', 'q', 'limit']);
  });

  it('adds no distance to a search without near', async () => {
    const result = await page('country=de&limit=100');
    expect(result.doctors.some((doctor) => 'distanceMeters' in doctor)).toBe(false);
    expect(ids(result)).toContain('geo-none');
  });

  it.each([
    ['near=abc', ['near']],
    ['near=91,0', ['near']],
    ['near=0,181', ['near']],
    ['near=', ['near']],
    [`near=${NEAR}&radius=0`, ['radius']],
    [`near=${NEAR}&radius=50001`, ['radius']],
    [`near=${NEAR}&radius=2km`, ['radius']],
    ['radius=500', ['radius']],
    [`near=${NEAR}&near=1,2`, ['near']],
    ['near=x&radius=y&limit=0', ['near', 'radius', 'limit']],
  ])('refuses %s with 400 naming each bad parameter', async (query, parameters) => {
    const problem = expectProblem(await search(`country=de&${query}`), 400);
    expect(problem.errors.map((error) => error.parameter)).toEqual(parameters);
  });
});
