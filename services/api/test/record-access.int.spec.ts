import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOCTOR_EXTRA_KEYS,
  DOCTOR_KEYS,
  PAGE_LANGUAGES,
  toSearchDocument,
  type DoctorExtras,
  type PageLanguage,
} from '@directory/domain';
import { HIDDEN_IDS, SITE_ORIGIN, testDataset } from '@directory/testing';
import { createApiHarness, createCaller, type ApiHarness, type Caller } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

/**
 * Record access: `fields=` and `lang=` on search, single get and batch get, and the batch get itself
 * (`GET /api/v1/doctors?ids=…`), through the API over the real index. Every answer is checked against the
 * published OpenAPI document by the caller.
 */

const MUELLER_URL = (lang: PageLanguage) =>
  `${SITE_ORIGIN}/${lang}/${PAGE_LANGUAGES[lang]}/de/berlin/praxis-dr-mueller`;
const SANCHEZ_URL = `${SITE_ORIGIN}/es/medicos/es/madrid/clinica-dental-sanchez`;
const EXTRAS: DoctorExtras = {
  specialtyCodes: ['general-practice', 'sports-medicine'],
  openingHours: { timeZone: 'Europe/Berlin', periods: [{ day: 1, open: '08:00', close: '12:00' }] },
  languages: ['de', 'en'],
  acceptingNewPatients: true,
  wheelchairAccessible: false,
  insurance: ['gkv', 'pkv'],
  observedAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  verifiedAt: '2026-01-01T00:00:00.000Z',
};

type Record = { [key: string]: unknown; id: string };
type Page = { doctors: Record[]; page: { nextCursor: string | null } };
type Batch = { doctors: Record[]; missing: string[] };

describe('record access: fields, lang and batch get', () => {
  let harness: ApiHarness;
  let call: Caller;
  let secret: string;

  beforeAll(async () => {
    harness = await createApiHarness('api-record-access');
    call = await createCaller(await harness.newApp());
    ({ secret } = await harness.createKey());
    const { states } = testDataset();
    await harness.index(states);
    // One record with known extras (the projection fills them in a later release).
    const mueller = states.find((state) => state.placeId === 'de-mueller');
    if (mueller === undefined) throw new Error('dataset without de-mueller');
    const document = toSearchDocument(mueller, { siteOrigin: SITE_ORIGIN });
    await harness.search.client.index({
      index: harness.alias,
      id: 'de-mueller',
      document: { ...document, extras: EXTRAS },
      refresh: true,
    });
  });
  afterAll(() => harness.close());

  const get = (url: string) => call({ url, headers: { 'x-api-key': secret } });
  const ok = async <Body>(url: string): Promise<Body> => {
    const response = await get(url);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    return response.json<Body>();
  };
  const batch = (ids: string[], more = '') =>
    get(`/api/v1/doctors?ids=${ids.map(encodeURIComponent).join(',')}${more}`);

  describe('fields', () => {
    it('selects fields on search, with id always and in schema order, over the same records', async () => {
      const full = await ok<Page>('/api/v1/doctors?country=de&limit=5');
      const selected = await ok<Page>('/api/v1/doctors?country=de&limit=5&fields=profileUrl,name');
      expect(selected.doctors.map((doctor) => doctor.id)).toEqual(full.doctors.map((doctor) => doctor.id));
      for (const [index, doctor] of selected.doctors.entries()) {
        expect(Object.keys(doctor)).toEqual(['id', 'name', 'profileUrl']);
        expect(doctor.name).toBe(full.doctors[index]?.name);
      }
    });

    it('returns the extra fields only when named, and every field with *', async () => {
      const plain = await ok<{ doctor: Record }>('/api/v1/doctors/de-mueller');
      expect(Object.keys(plain.doctor)).toEqual(DOCTOR_KEYS);
      const named = await ok<{ doctor: Record }>(
        '/api/v1/doctors/de-mueller?fields=openingHours,specialtyCodes,insurance,languages,wheelchairAccessible,acceptingNewPatients,verifiedAt,updatedAt,observedAt',
      );
      expect(named.doctor).toEqual({ id: 'de-mueller', ...EXTRAS });
      const all = await ok<{ doctor: Record }>('/api/v1/doctors/de-mueller?fields=*');
      expect(Object.keys(all.doctor)).toEqual([...DOCTOR_KEYS, ...DOCTOR_EXTRA_KEYS]);
      expect(all.doctor).toEqual({ ...plain.doctor, ...EXTRAS });
      const searched = await ok<Page>('/api/v1/doctors?country=de&q=praxis%20dr%20m%C3%BCller&fields=*');
      expect(searched.doctors).toEqual([all.doctor]);
    });

    it('keeps distanceMeters, last, on a geo search', async () => {
      const page = await ok<Page>('/api/v1/doctors?country=de&near=52.52,13.405&limit=3&fields=name');
      expect(page.doctors).toHaveLength(3);
      for (const doctor of page.doctors)
        expect(Object.keys(doctor)).toEqual(['id', 'name', 'distanceMeters']);
    });

    it('does not bind cursors: pages continue with other fields and lang, or none', async () => {
      const first = await ok<Page>('/api/v1/doctors?country=de&limit=10&fields=name&lang=it');
      const cursor = encodeURIComponent(first.page.nextCursor ?? 'missing');
      const plain = await ok<Page>(`/api/v1/doctors?country=de&limit=10&cursor=${cursor}`);
      const shaped = await ok<Page>(`/api/v1/doctors?country=de&limit=10&cursor=${cursor}&fields=verified`);
      expect(shaped.doctors.map((doctor) => doctor.id)).toEqual(plain.doctors.map((doctor) => doctor.id));
      const reference = await ok<Page>('/api/v1/doctors?country=de&limit=20');
      expect([...first.doctors, ...plain.doctors].map((doctor) => doctor.id)).toEqual(
        reference.doctors.map((doctor) => doctor.id),
      );
    });

    it('answers a get ETag over the shaped record', async () => {
      const response = await get('/api/v1/doctors/de-mueller?fields=name');
      expect(response.json()).toEqual({ doctor: { id: 'de-mueller', name: 'Praxis Dr. Müller' } });
      expect(response.headers.etag).toMatch(/^"[\w-]{27}"$/);
      expect(response.headers.etag).not.toBe((await get('/api/v1/doctors/de-mueller')).headers.etag);
    });
  });

  describe('lang', () => {
    it.each(Object.keys(PAGE_LANGUAGES) as PageLanguage[])(
      'gives profileUrl in %s on search, get and batch',
      async (lang) => {
        const page = await ok<Page>(`/api/v1/doctors?country=de&q=praxis%20dr&lang=${lang}`);
        expect(page.doctors.find((doctor) => doctor.id === 'de-mueller')?.profileUrl).toBe(MUELLER_URL(lang));
        const one = await ok<{ doctor: Record }>(`/api/v1/doctors/de-mueller?lang=${lang.toUpperCase()}`);
        expect(one.doctor.profileUrl).toBe(MUELLER_URL(lang));
        const plain = await ok<{ doctor: Record }>('/api/v1/doctors/de-mueller');
        expect(one.doctor).toEqual({ ...plain.doctor, profileUrl: MUELLER_URL(lang) });
        const answered = (await batch(['de-mueller'], `&lang=${lang}`)).json<Batch>();
        expect(answered.doctors[0]?.profileUrl).toBe(MUELLER_URL(lang));
      },
    );

    it('leaves the stored (English) URL without lang', async () => {
      expect((await ok<{ doctor: Record }>('/api/v1/doctors/de-mueller')).doctor.profileUrl).toBe(
        MUELLER_URL('en'),
      );
    });
  });

  describe('batch get', () => {
    it('answers found records once each in request order, and the rest as missing, as sent', async () => {
      const response = await batch([
        'no-such-id',
        MUELLER_URL('fr'),
        'es-sanchez',
        ...HIDDEN_IDS,
        'de-mueller',
        'es-sanchez',
        `${SITE_ORIGIN}/de/aerzte/de/berlin/praxis-unterdrueckt`,
        MUELLER_URL('de'),
        'no-such-id',
        'it-rossi',
      ]);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<Batch>();
      expect(body.doctors.map((doctor) => doctor.id)).toEqual(['de-mueller', 'es-sanchez', 'it-rossi']);
      expect(body.missing).toEqual([
        'no-such-id',
        ...HIDDEN_IDS,
        `${SITE_ORIGIN}/de/aerzte/de/berlin/praxis-unterdrueckt`,
      ]);
      const single = await ok<{ doctor: Record }>('/api/v1/doctors/es-sanchez');
      expect(body.doctors[1]).toEqual(single.doctor);
      expect(Object.keys(body)).toEqual(['doctors', 'missing']);
    });

    it('takes profile URLs alone, in any language, with fields', async () => {
      const response = await batch([SANCHEZ_URL, MUELLER_URL('pt')], '&fields=name,specialtyCodes');
      expect(response.json()).toEqual({
        doctors: [
          { id: 'es-sanchez', name: 'Clínica Dental Sánchez', specialtyCodes: ['dentistry'] },
          { id: 'de-mueller', name: 'Praxis Dr. Müller', specialtyCodes: EXTRAS.specialtyCodes },
        ],
        missing: [],
      });
    });

    it('asks Elasticsearch once for a whole batch', async () => {
      const { servedGermanIds } = testDataset();
      let requests = 0;
      const count = () => (requests += 1);
      harness.search.client.diagnostic.on('request', count);
      try {
        const response = await batch([
          ...servedGermanIds.slice(0, 40),
          MUELLER_URL('it'),
          SANCHEZ_URL,
          'none',
        ]);
        expect(response.json<Batch>().doctors).toHaveLength(41);
      } finally {
        harness.search.client.diagnostic.off('request', count);
      }
      expect(requests).toBe(1);
    });

    it('takes 100 entries and refuses 101, naming ids', async () => {
      const { servedGermanIds } = testDataset();
      const hundred = Array.from({ length: 100 }, (_, index) => servedGermanIds[index] ?? `missing-${index}`);
      const answered = (await batch(hundred)).json<Batch>();
      expect(answered.doctors.length + answered.missing.length).toBe(100);
      expect(answered.doctors.map((doctor) => doctor.id)).toEqual(
        servedGermanIds.slice(0, answered.doctors.length),
      );
      const refused = expectProblem(await batch([...hundred, 'one-more']), 400);
      expect(refused.errors).toEqual([
        { parameter: 'ids', reason: 'must list at most 100 entries; split the batch into several requests' },
      ]);
    });

    it('refuses bad entries by position, search parameters by name, and an over-long ids', async () => {
      const entries = expectProblem(await batch(['de-mueller', 'bad id', 'https://evil.example/x', '']), 400);
      expect(entries.detail).toBe('One or more entries of ids are invalid; see errors.');
      expect(entries.errors.map((error) => error.reason.replace(/:.*/, ''))).toEqual([
        'entry 2',
        'entry 3',
        'entry 4 is empty',
      ]);
      expect(JSON.stringify(entries)).not.toContain('evil');

      const conflicts = expectProblem(
        await batch(['de-mueller'], '&country=de&limit=5&cursor=x&fields=nope'),
        400,
      );
      expect(conflicts.errors.map((error) => error.parameter)).toEqual([
        'fields',
        'country',
        'limit',
        'cursor',
      ]);
      expect(conflicts.errors[1]?.reason).toMatch(/^cannot be combined with ids/);

      const long = Array.from({ length: 17 }, () => `${SITE_ORIGIN}/de/aerzte/de/berlin/${'p'.repeat(1000)}`);
      const tooLong = expectProblem(await batch(long), 400);
      expect(tooLong.errors).toEqual([
        {
          parameter: 'ids',
          reason: 'must be at most 16384 characters; split the batch into several requests',
        },
      ]);
      expectProblem(await get('/api/v1/doctors?ids='), 400);
      expectProblem(await get('/api/v1/doctors?ids=a&ids=b'), 400);
    });

    it('answers a request head beyond the server limit with a 431 problem, not a dropped connection', async () => {
      const app = await harness.newApp();
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as AddressInfo;
      const ids = Array.from({ length: 100 }, () =>
        encodeURIComponent(`${SITE_ORIGIN}/de/aerzte/de/berlin/${'p'.repeat(700)}`),
      );
      const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const request = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: `/api/v1/doctors?ids=${ids.join(',')}`,
            headers: { 'x-api-key': secret },
          },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk));
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                type: String(response.headers['content-type']),
                body,
              }),
            );
          },
        );
        request.on('error', reject);
        request.end();
      });
      expect(answer.status).toBe(431);
      expect(answer.type).toBe('application/problem+json');
      expect(JSON.parse(answer.body)).toMatchObject({
        status: 431,
        title: 'Request header fields too large',
      });
    });
  });

  describe('refused parameters', () => {
    it.each([
      ['fields=', 'fields', /^must name at least one field/],
      ['fields=name,nope', 'fields', /^entry 2 is not a field name; expected id, name, legalName/],
      ['fields=name,name', 'fields', /^entry 2 repeats a field/],
      ['fields=name,', 'fields', /^entry 2 is empty/],
      ['lang=nl', 'lang', /^must be one of en, de, es, fr, it, pt$/],
    ])('%s on search and get', async (query, parameter, reason) => {
      for (const url of [`/api/v1/doctors?country=de&${query}`, `/api/v1/doctors/de-mueller?${query}`]) {
        const problem = expectProblem(await get(url), 400);
        expect(problem.errors).toEqual([{ parameter, reason: expect.stringMatching(reason) as string }]);
      }
    });

    it('keeps the original answers to requests that use no newer parameter, and lists the newer ones to those that do', async () => {
      const old = expectProblem(await get('/api/v1/doctors/de-mueller?limit=1'), 400);
      expect(old).toMatchObject({
        detail: 'This operation takes no query parameters.',
        errors: [{ parameter: 'limit', reason: 'is not a known parameter' }],
      });
      const shaped = expectProblem(await get('/api/v1/doctors/de-mueller?lang=de&limit=1'), 400);
      expect(shaped.errors).toEqual([
        {
          parameter: 'limit',
          reason: 'is not a known parameter (known: fields, lang; names are case-sensitive)',
        },
      ]);
      const searchOriginal = expectProblem(await get('/api/v1/doctors?country=de&feilds=name'), 400);
      expect(searchOriginal.errors[0]?.reason).toBe(
        'is not a known parameter (known: country, city, q, whatsapp, verified, limit, cursor; names are case-sensitive)',
      );
      const searchNewer = expectProblem(await get('/api/v1/doctors?country=de&lang=de&feilds=name'), 400);
      expect(searchNewer.errors[0]?.reason).toMatch(/known: .*cursor, fields, lang, ids;/);
      expectProblem(await get('/api/v1/doctors?fields=name'), 400); // a search still needs country
    });
  });
});
