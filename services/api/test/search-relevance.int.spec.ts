import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_EXACT_UP_TO, type Doctor } from '@directory/domain';
import { placeState } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

type Record = Doctor & { distanceMeters?: number };
type Suggestion =
  | { kind: 'query'; q: string; resultCount: number }
  | { kind: 'radius'; radius: number; resultCount: number }
  | { kind: 'city'; city: string; name: string | null; resultCount: number };
type Page = {
  suggestions?: Suggestion[];
  doctors: Record[];
  page: { count: number; hasMore: boolean; nextCursor: string | null; total?: number; totalExact?: boolean };
};

const BERLIN = { latitude: 52.52, longitude: 13.405 };
const north = (km: number) => ({ latitude: BERLIN.latitude + 0.009 * km, longitude: BERLIN.longitude });

// A German dataset where the best match is never first by name, a Spanish one for cross-language
// specialties, and a place beyond the antimeridian for the viewport's edge case.
const PLACES = [
  placeState({ id: 'rel-zahn-praxis', name: 'Zahnarztpraxis am Markt', location: north(2) }),
  placeState({
    id: 'rel-zahn-mueller',
    name: 'Dr. Anna Müller',
    primaryType: 'Zahnarzt',
    location: north(6),
  }),
  placeState({
    id: 'rel-augen',
    name: 'Augenarztpraxis Schmidt',
    primaryType: 'Augenarzt',
    location: north(1),
  }),
  placeState({
    id: 'rel-kinder-hamburg',
    name: 'Kinderarztpraxis Sonnenschein',
    primaryType: 'Kinderarzt',
    city: 'Hamburg',
    citySlug: 'hamburg',
    location: { latitude: 53.5511, longitude: 9.9937 },
  }),
  placeState({
    id: 'rel-kinder-berlin',
    name: 'Praxis Lindenhof',
    primaryType: 'Kinderarzt',
    location: north(3),
  }),
  placeState({
    id: 'rel-allgemein',
    name: 'Allgemeinmedizin Weber',
    primaryType: 'Hausarzt',
    location: north(4),
  }),
  placeState({ id: 'rel-anna-weber', name: 'Praxis Weber und Anna', location: north(5) }),
  placeState({
    id: 'rel-es-dentista',
    name: 'Clínica Sonrisa',
    country: 'es',
    primaryType: 'Dentista',
    city: 'Madrid',
    citySlug: 'madrid',
    location: { latitude: 40.4168, longitude: -3.7038 },
  }),
  placeState({
    id: 'rel-es-pediatra',
    name: 'Consulta Doctora Ruiz',
    country: 'es',
    primaryType: 'Pediatra',
    city: 'Madrid',
    citySlug: 'madrid',
    location: { latitude: 40.42, longitude: -3.7 },
  }),
  placeState({
    id: 'rel-es-clinica-dental',
    name: 'Clínica Dental Robles',
    country: 'es',
    primaryType: 'Consulta',
    city: 'Madrid',
    citySlug: 'madrid',
    location: { latitude: 40.43, longitude: -3.69 },
  }),
  placeState({ id: 'rel-fiji', name: 'Praxis Fidschi', location: { latitude: -17.7, longitude: 178.4 } }),
  placeState({ id: 'rel-hidden', name: 'Zahnarztpraxis Geschlossen', closed: true, location: north(2) }),
];

/** A 400 problem that names the parameter. */
function expectRefused(response: Parameters<typeof expectProblem>[0], parameter: string): void {
  const body = expectProblem(response, 400);
  expect(body.errors.map((error) => error.parameter)).toContain(parameter);
}

describe('GET /api/v1/doctors, API 1.3: sort, relevance, bbox and count', () => {
  let api: KeyedApi;

  beforeAll(async () => {
    api = await createKeyedApi('api-relevance', PLACES);
  });
  afterAll(() => api.close());

  const search = (query: string) => api.get(`/api/v1/doctors?${query}`);
  const page = (query: string) => api.getOk<Page>(`/api/v1/doctors?${query}`);
  const ids = async (query: string) => (await page(query)).doctors.map((doctor) => doctor.id);

  describe('sort=relevance', () => {
    it('finds a German compound by its part, and ranks a name match above a type match', async () => {
      const found = await ids('country=de&q=zahnarzt&sort=relevance');
      expect(found).toEqual(['rel-zahn-praxis', 'rel-zahn-mueller']);
      // The literal search of 1.2 finds the compound only as a prefix of the first word, sorted by name.
      expect(await ids('country=de&q=zahnarzt')).toEqual(['rel-zahn-mueller', 'rel-zahn-praxis']);
    });

    it('forgives a typo in a longer word, never in a short one', async () => {
      expect(await ids('country=de&q=zahnartz&sort=relevance')).toContain('rel-zahn-praxis');
      expect(await ids('country=de&q=kinderatz%20hamburg&sort=relevance')).toEqual(['rel-kinder-hamburg']);
      expect(await ids('country=de&q=zahnartz')).toEqual([]);
      // "Anno" is one edit from "Anna" but four letters long: one edit allowed; "Ann" (three) only exactly.
      expect(await ids('country=de&q=anno&sort=relevance')).toContain('rel-zahn-mueller');
      expect(await ids('country=de&q=xnna%20weber&sort=relevance')).toEqual([]);
    });

    it('matches specialty words across the page languages and by code', async () => {
      expect(await ids('country=es&q=dentist&sort=relevance')).toEqual(['rel-es-dentista']);
      expect(await ids('country=es&q=zahnarzt%20madrid&sort=relevance')).toEqual(['rel-es-dentista']);
      expect(await ids('country=es&q=pediatrics&sort=relevance')).toEqual(['rel-es-pediatra']);
      expect(await ids('country=de&q=dentistry&sort=relevance')).toEqual(['rel-zahn-mueller']);
    });

    it('finds two words typed as one, with a typo too, and leaves the words typed apart as they were', async () => {
      expect(await ids('country=es&q=clinicadental&sort=relevance')).toEqual(['rel-es-clinica-dental']);
      expect(await ids('country=es&q=clinicadentl%20madrid&sort=relevance')).toEqual([
        'rel-es-clinica-dental',
      ]);
      expect(await ids('country=es&q=clinicasonrisa&sort=relevance')).toEqual(['rel-es-dentista']);
      // Typed apart, the dentist (a "dental" specialty synonym) still matches, below the name.
      expect(await ids('country=es&q=clinica%20dental&sort=relevance')).toEqual([
        'rel-es-clinica-dental',
        'rel-es-dentista',
      ]);
      expect(await ids('country=es&q=clinica&sort=relevance')).toEqual(
        expect.arrayContaining(['rel-es-clinica-dental', 'rel-es-dentista']),
      );
      // Literal search reads no joined words; nor does a prefix ("clinicaden" is no whole pair).
      expect(await ids('country=es&q=clinicadental')).toEqual([]);
      expect(await ids('country=es&q=clinicaden&sort=relevance')).toEqual([]);
    });

    it('takes the last word as a prefix and rewards the words in order in the name', async () => {
      expect(await ids('country=de&q=kinderarzt%20ham&sort=relevance')).toEqual(['rel-kinder-hamburg']);
      const phrase = await ids('country=de&q=anna%20weber&sort=relevance');
      expect(phrase[0]).toBe('rel-anna-weber');
    });

    it('orders by the distance decay with near, and shows distanceMeters', async () => {
      const result = await page(`country=de&near=${BERLIN.latitude},${BERLIN.longitude}&sort=relevance`);
      expect(result.doctors.map((doctor) => doctor.id)).toEqual([
        'rel-augen',
        'rel-zahn-praxis',
        'rel-kinder-berlin',
        'rel-allgemein',
        'rel-anna-weber',
        'rel-zahn-mueller',
      ]);
      const distances = result.doctors.map((doctor) => doctor.distanceMeters ?? -1);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      expect(distances[0]).toBeGreaterThan(900);
    });

    it('pages through every match exactly once with cursors bound to the order', async () => {
      const query = 'country=de&q=praxis&sort=relevance';
      const all = await ids(`${query}&limit=100`);
      expect(all.length).toBeGreaterThanOrEqual(4);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const result: Page = await page(`${query}&limit=1${suffix}`);
        seen.push(...result.doctors.map((doctor) => doctor.id));
        cursor = result.page.nextCursor;
        if (cursor !== null) {
          // The same cursor under another order is refused: it holds a score, not a name.
          const other = await search(`country=de&q=praxis&limit=1&cursor=${encodeURIComponent(cursor)}`);
          expectRefused(other, 'cursor');
        }
      } while (cursor !== null);
      expect(seen).toEqual(all);
    });
  });

  describe('suggestions=true (API 1.4)', () => {
    it('suggests a corrected q, a wider radius, a nearby city, each only when it applies', async () => {
      const suggestions = async (query: string) => (await page(`${query}&suggestions=true`)).suggestions;
      // A literal q with a typo: the known word, with what it finds (every other parameter kept).
      expect(await suggestions('country=de&q=zahnartz')).toEqual([
        { kind: 'query', q: 'zahnarzt', resultCount: 2 },
      ]);
      expect(await suggestions('country=de&q=zahnartz&city=hamburg')).toEqual([]);
      // Nothing within 500 m: the smallest larger radius that finds something (rel-augen, 1 km).
      const near = `near=${BERLIN.latitude},${BERLIN.longitude}`;
      expect(await suggestions(`country=de&${near}&radius=500`)).toEqual([
        { kind: 'radius', radius: 2_000, resultCount: 1 },
      ]);
      // The children's practice is in Hamburg, not Berlin: the nearest city that has it.
      expect(await suggestions('country=de&city=berlin&q=kinderarztpraxis')).toEqual([
        { kind: 'city', city: 'hamburg', name: 'Hamburg', resultCount: 1 },
      ]);
      // Nothing close: an empty list. A page with records: an empty list. Not asked: no field at all.
      expect(await suggestions('country=de&q=xqxqxqxq')).toEqual([]);
      expect(await suggestions('country=de&q=zahnarzt')).toEqual([]);
      expect(await page('country=de&q=zahnartz')).not.toHaveProperty('suggestions');
      expectRefused(await search('country=de&suggestions=yes'), 'suggestions');
    });
  });

  describe('sort=name and sort=distance', () => {
    it('orders by name with near when asked, still with each distance', async () => {
      const result = await page(`country=de&near=${BERLIN.latitude},${BERLIN.longitude}&sort=name`);
      const names = result.doctors.map((doctor) => doctor.name ?? '');
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
      expect(result.doctors.every((doctor) => typeof doctor.distanceMeters === 'number')).toBe(true);
    });

    it('gives a default order named explicitly the very cursor of leaving it out', async () => {
      const implicit = await page('country=de&limit=2');
      const explicit = await page('country=de&limit=2&sort=name');
      expect(explicit).toEqual(implicit);
    });

    it('refuses distance without near, and an unknown order, naming the parameter', async () => {
      expectRefused(await search('country=de&sort=distance'), 'sort');
      expectRefused(await search('country=de&sort=rating'), 'sort');
    });
  });

  describe('bbox', () => {
    it('keeps the records inside the viewport, with any sort and filter', async () => {
      const berlin = 'bbox=13.3,52.5,13.5,52.566';
      expect((await ids(`country=de&${berlin}`)).sort()).toEqual(
        ['rel-allgemein', 'rel-anna-weber', 'rel-augen', 'rel-kinder-berlin', 'rel-zahn-praxis'].sort(),
      );
      expect(await ids(`country=de&${berlin}&q=zahnarzt&sort=relevance`)).toEqual(['rel-zahn-praxis']);
      expect(await ids(`country=de&bbox=9.9,53.5,10.1,53.6`)).toEqual(['rel-kinder-hamburg']);
    });

    it('takes a box across the antimeridian', async () => {
      expect(await ids('country=de&bbox=178,-18,-179,-17')).toEqual(['rel-fiji']);
      expect(await ids('country=de&bbox=-179,-18,178,-17')).not.toContain('rel-fiji');
    });

    it('refuses a malformed or inverted box, naming it', async () => {
      for (const box of ['1,2,3', '13,52.6,14,52.4', '13,52,13,53', 'a,b,c,d', '181,0,182,1']) {
        expectRefused(await search(`country=de&bbox=${box}`), 'bbox');
      }
    });
  });

  describe('count=true', () => {
    it('adds the exact total of every page, and nothing without it', async () => {
      const first = await page('country=de&limit=2&count=true');
      expect(first.page).toMatchObject({ count: 2, total: 8, totalExact: true });
      const second = await page(
        `country=de&limit=2&count=true&cursor=${encodeURIComponent(first.page.nextCursor ?? '')}`,
      );
      expect(second.page.total).toBe(8);
      // count does not bind the cursor: it changes no record.
      const uncounted = await page(
        `country=de&limit=2&cursor=${encodeURIComponent(first.page.nextCursor ?? '')}`,
      );
      expect(uncounted.page).not.toHaveProperty('total');
      expect(uncounted.doctors).toEqual(second.doctors);
      expect((await page('country=es&q=dentist&sort=relevance&count=true')).page.total).toBe(1);
      expect(TOTAL_EXACT_UP_TO).toBe(10_000);
    });
  });
});
