import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCTOR_KEYS, INSURANCE_SCHEMES } from '@directory/domain';
import { placeState } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

/**
 * API 1.3 patient attributes over the real index: each filter selects exactly the records whose crawl
 * gave that value, a record whose crawl did not say matches neither value of a boolean filter, the four
 * fields come back only when named in `fields`, and bad values are refused with the reason.
 */

type Record = { [key: string]: unknown; id: string };
type Page = { doctors: Record[]; page: { count: number; hasMore: boolean; nextCursor: string | null } };

const ATTRIBUTES = ['languages', 'acceptingNewPatients', 'wheelchairAccessible', 'insurance'];

// Berlin unless said otherwise. Names give the order of results.
const PLACES = [
  placeState({
    id: 'pa-everything',
    name: 'A Praxis Alles',
    languages: ['de', 'en'],
    acceptingNewPatients: true,
    wheelchairAccessible: true,
    insurance: ['gkv', 'pkv'],
  }),
  // As a source may write them: case folded, a region dropped.
  placeState({
    id: 'pa-private',
    name: 'B Privatpraxis',
    languages: ['EN-gb', 'TR'],
    acceptingNewPatients: false,
    wheelchairAccessible: false,
    insurance: ['PKV'],
  }),
  // A crawl from before API 1.3: none of the four.
  placeState({ id: 'pa-unknown', name: 'C Praxis Unbekannt' }),
  placeState({
    id: 'pa-nulls',
    name: 'D Praxis Null',
    languages: null,
    acceptingNewPatients: null,
    wheelchairAccessible: null,
    insurance: null,
  }),
  // Only codes outside the lists: unknown once read.
  placeState({
    id: 'pa-odd',
    name: 'E Praxis Seltsam',
    languages: ['Klingon', 'english'],
    insurance: ['aok'],
  }),
  placeState({
    id: 'pa-hidden',
    name: 'F Geschlossen',
    closed: true,
    languages: ['en'],
    acceptingNewPatients: true,
    wheelchairAccessible: true,
    insurance: ['gkv'],
  }),
  placeState({
    id: 'es-sns',
    name: 'A Clínica Pública',
    country: 'es',
    city: 'Madrid',
    citySlug: 'madrid',
    languages: ['es', 'en'],
    acceptingNewPatients: true,
    insurance: ['sns', 'muface', 'gkv'],
  }),
  placeState({
    id: 'pt-sns',
    name: 'A Clínica do Porto',
    country: 'pt',
    city: 'Porto',
    citySlug: 'porto',
    languages: ['pt'],
    wheelchairAccessible: true,
    insurance: ['sns'],
  }),
];

describe('GET /api/v1/doctors with the API 1.3 patient attributes', () => {
  let api: KeyedApi;

  beforeAll(async () => {
    api = await createKeyedApi('api-patient-attributes', PLACES);
  });
  afterAll(() => api.close());

  const ids = async (query: string) =>
    (await api.getOk<Page>(`/api/v1/doctors?${query}&limit=100`)).doctors.map((doctor) => doctor.id);

  describe('filters', () => {
    it('language selects the records that speak it', async () => {
      expect(await ids('country=de&language=en')).toEqual(['pa-everything', 'pa-private']);
      expect(await ids('country=de&language=tr')).toEqual(['pa-private']);
      expect(await ids('country=de&language=de')).toEqual(['pa-everything']);
      expect(await ids('country=de&language=fr')).toEqual([]);
      expect(await ids('country=es&language=en')).toEqual(['es-sns']);
    });

    it('acceptingNewPatients and wheelchairAccessible: unknown matches neither true nor false', async () => {
      const all = await ids('country=de');
      expect(all).toEqual(['pa-everything', 'pa-private', 'pa-unknown', 'pa-nulls', 'pa-odd']);
      for (const name of ['acceptingNewPatients', 'wheelchairAccessible']) {
        expect(await ids(`country=de&${name}=true`), name).toEqual(['pa-everything']);
        expect(await ids(`country=de&${name}=false`), name).toEqual(['pa-private']);
      }
      expect(await ids('country=es&acceptingNewPatients=true')).toEqual(['es-sns']);
      expect(await ids('country=es&wheelchairAccessible=true')).toEqual([]);
      expect(await ids('country=es&wheelchairAccessible=false')).toEqual([]);
      expect(await ids('country=pt&wheelchairAccessible=true')).toEqual(['pt-sns']);
    });

    it("insurance selects the records holding that code of their own country's list", async () => {
      expect(await ids('country=de&insurance=gkv')).toEqual(['pa-everything']);
      expect(await ids('country=de&insurance=pkv')).toEqual(['pa-everything', 'pa-private']);
      expect(await ids('country=es&insurance=sns')).toEqual(['es-sns']);
      expect(await ids('country=es&insurance=muface')).toEqual(['es-sns']);
      expect(await ids('country=pt&insurance=sns')).toEqual(['pt-sns']);
      // A code of another country is a valid value that no record of this one holds.
      expect(await ids('country=es&insurance=gkv')).toEqual([]);
      expect(await ids('country=de&insurance=sns')).toEqual([]);
    });

    it('combines with each other and with the other filters', async () => {
      expect(
        await ids('country=de&language=en&acceptingNewPatients=true&wheelchairAccessible=true&insurance=pkv'),
      ).toEqual(['pa-everything']);
      expect(await ids('country=de&language=en&insurance=pkv&q=privat')).toEqual(['pa-private']);
    });

    it('pages with a cursor bound to the attribute filters', async () => {
      const first = await api.getOk<Page>('/api/v1/doctors?country=de&language=en&limit=1');
      expect(first.doctors.map((doctor) => doctor.id)).toEqual(['pa-everything']);
      const cursor = encodeURIComponent(first.page.nextCursor ?? 'missing');
      const second = await api.getOk<Page>(`/api/v1/doctors?country=de&language=en&limit=1&cursor=${cursor}`);
      expect(second.doctors.map((doctor) => doctor.id)).toEqual(['pa-private']);
      expect(second.page.hasMore).toBe(false);
      const other = await api.get(`/api/v1/doctors?country=de&language=tr&limit=1&cursor=${cursor}`);
      expect(expectProblem(other, 400).errors.map((error) => error.parameter)).toEqual(['cursor']);
    });

    it('refuses bad values with the reason, every one at once', async () => {
      const response = await api.get(
        '/api/v1/doctors?country=de&language=english&acceptingNewPatients=yes&wheelchairAccessible=1&insurance=aok',
      );
      const errors = expectProblem(response, 400).errors;
      expect(errors.map((error) => error.parameter)).toEqual([
        'language',
        'acceptingNewPatients',
        'wheelchairAccessible',
        'insurance',
      ]);
      const reasons = Object.fromEntries(errors.map((error) => [error.parameter, error.reason]));
      expect(reasons.language).toMatch(/ISO 639-1/);
      expect(reasons.language).toContain(' de, ');
      expect(reasons.acceptingNewPatients).toBe('must be true or false');
      expect(reasons.wheelchairAccessible).toBe('must be true or false');
      // Every country's codes, from the code table.
      for (const [country, schemes] of Object.entries(INSURANCE_SCHEMES)) {
        expect(reasons.insurance).toContain(`${country}: ${schemes.map((scheme) => scheme.code).join(', ')}`);
      }
      // Codes exactly as listed (lowercase), one per search; booleans exactly true or false.
      const refused = ['language=', 'language=EN', 'language=de,en', 'insurance=', 'insurance=GKV'];
      for (const query of [...refused, 'acceptingNewPatients=', 'wheelchairAccessible=TRUE']) {
        expect(expectProblem(await api.get(`/api/v1/doctors?country=de&${query}`), 400).errors).toHaveLength(
          1,
        );
      }
      // A request using them is a 1.3 request: its unknown-parameter reason lists them; a 1.1 one's does not.
      const unknownWith = await api.get('/api/v1/doctors?country=de&insurance=gkv&colour=red');
      const [unknown] = expectProblem(unknownWith, 400).errors;
      expect(unknown?.reason).toContain('language, acceptingNewPatients, wheelchairAccessible, insurance');
      const unknownWithout = await api.get('/api/v1/doctors?country=de&colour=red');
      expect(expectProblem(unknownWithout, 400).errors[0]?.reason).not.toContain('language');
      const repeated = await api.get('/api/v1/doctors?country=de&language=de&language=en');
      expect(expectProblem(repeated, 400).errors).toEqual([
        { parameter: 'language', reason: 'must be given once' },
      ]);
    });
  });

  describe('fields', () => {
    it('returns the four only when named, and with *', async () => {
      const plain = await api.getOk<Page>('/api/v1/doctors?country=de&language=en');
      for (const doctor of plain.doctors) expect(Object.keys(doctor)).toEqual(DOCTOR_KEYS);
      const named = await api.getOk<Page>(
        '/api/v1/doctors?country=de&language=en&fields=insurance,languages',
      );
      expect(named.doctors).toEqual([
        { id: 'pa-everything', languages: ['de', 'en'], insurance: ['gkv', 'pkv'] },
        { id: 'pa-private', languages: ['en', 'tr'], insurance: ['pkv'] },
      ]);
      const all = await api.getOk<Page>('/api/v1/doctors?country=de&fields=*');
      const byId = new Map(all.doctors.map((doctor) => [doctor.id, doctor]));
      expect(Object.keys(byId.get('pa-everything') ?? {})).toEqual(expect.arrayContaining(ATTRIBUTES));
      const unknown = {
        languages: [],
        acceptingNewPatients: null,
        wheelchairAccessible: null,
        insurance: [],
      };
      for (const id of ['pa-unknown', 'pa-nulls', 'pa-odd']) expect(byId.get(id), id).toMatchObject(unknown);
      expect(byId.get('pa-private')).toMatchObject({
        languages: ['en', 'tr'],
        acceptingNewPatients: false,
        wheelchairAccessible: false,
        insurance: ['pkv'],
      });
    });

    it("reads insurance codes in the record's own country", async () => {
      const page = await api.getOk<Page>('/api/v1/doctors?country=es&fields=insurance,acceptingNewPatients');
      expect(page.doctors).toEqual([
        { id: 'es-sns', acceptingNewPatients: true, insurance: ['muface', 'sns'] },
      ]);
    });

    it('shapes single and batch get the same way', async () => {
      const plain = await api.getOk<{ doctor: Record }>('/api/v1/doctors/pa-everything');
      expect(Object.keys(plain.doctor)).toEqual(DOCTOR_KEYS);
      const single = await api.getOk<{ doctor: Record }>(
        '/api/v1/doctors/pa-everything?fields=acceptingNewPatients,wheelchairAccessible',
      );
      expect(single.doctor).toEqual({
        id: 'pa-everything',
        acceptingNewPatients: true,
        wheelchairAccessible: true,
      });
      const batch = await api.getOk<{ doctors: Record[]; missing: string[] }>(
        '/api/v1/doctors?ids=pt-sns,pa-hidden&fields=languages,wheelchairAccessible,insurance',
      );
      expect(batch).toEqual({
        doctors: [{ id: 'pt-sns', languages: ['pt'], wheelchairAccessible: true, insurance: ['sns'] }],
        missing: ['pa-hidden'],
      });
    });
  });
});
