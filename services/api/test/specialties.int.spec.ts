import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCTOR_KEYS, SPECIALTY_CODES, type Doctor } from '@directory/domain';
import { placeState } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

type SpecialtyList = { specialties: Array<{ code: string; label: string; count?: number }> };
type Page = { doctors: Doctor[]; page: { count: number; hasMore: boolean; nextCursor: string | null } };

const place = (id: string, primaryType: string | null, specialties: string[], extra: object = {}) =>
  placeState({ id, name: `Praxis ${id}`, primaryType, specialties, ...extra });

// Published labels in several languages and spellings; what each maps to is in the comment.
const PLACES = [
  place('de-zahn-1', 'Zahnarzt', ['Implantologie', 'Kieferorthopädie']), // dentistry, dental-implants, orthodontics
  place('de-zahn-2', 'Zahnarzt', ['Prophylaxe']), // dentistry, dental-hygiene
  place('de-zahn-3', ' ZAHNARZT ', []), // dentistry (case and spacing do not matter)
  place('de-kind', 'Kinderarzt', ['Kinderheilkunde', 'Sportmedizin']), // pediatrics, sports-medicine
  place('de-haus', 'Hausarzt', ['Allgemeinmedizin', 'Innere Medizin']), // general-practice, internal-medicine
  place('de-none', 'Arztpraxis', ['Ärztlicher Notdienst']), // nothing: outside the vocabulary
  place('de-null', null, []), // nothing
  // Never counted or found: not served.
  place('de-zahn-closed', 'Zahnarzt', [], { closed: true }),
  place('de-kind-hidden', 'Kinderarzt', [], { suppressed: true }),
  place('es-dent', 'Dentista', ['Ortodoncia'], { country: 'es', city: 'Madrid', citySlug: 'madrid' }),
  place('es-ped', 'Pediatra', ['Pediatría'], { country: 'es', city: 'Madrid', citySlug: 'madrid' }),
];

describe('GET /api/v1/specialties and the specialty filter', () => {
  let api: KeyedApi;

  beforeAll(async () => {
    api = await createKeyedApi('api-specialties', PLACES);
  });
  afterAll(() => api.close());

  const get = (url: string) => api.get(url);
  const list = async (query: string): Promise<SpecialtyList> => {
    const response = await get(`/api/v1/specialties${query === '' ? '' : `?${query}`}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['ratelimit-policy']).toBeDefined();
    return response.json<SpecialtyList>();
  };
  const search = async (query: string): Promise<Page> => {
    const response = await get(`/api/v1/doctors?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  };
  const ids = (page: Page) => page.doctors.map((doctor) => doctor.id);

  it('lists the whole vocabulary without country, in code order, labelled in lang (default en), without counts', async () => {
    const english = await list('');
    expect(english.specialties.map((entry) => entry.code)).toEqual(SPECIALTY_CODES);
    expect(english.specialties.every((entry) => !('count' in entry))).toBe(true);
    expect(english.specialties).toContainEqual({ code: 'dentistry', label: 'Dentistry' });
    expect(await list('lang=en')).toEqual(english);
    const german = await list('lang=de');
    expect(german.specialties.map((entry) => entry.code)).toEqual(SPECIALTY_CODES);
    expect(german.specialties).toContainEqual({ code: 'dentistry', label: 'Zahnmedizin' });
    expect((await list('lang=fr')).specialties).toContainEqual({ code: 'pediatrics', label: 'Pédiatrie' });
  });

  it("lists with country only the codes of the dataset's served records, most first, then code, counted", async () => {
    expect(await list('country=de&lang=de')).toEqual({
      specialties: [
        { code: 'dentistry', label: 'Zahnmedizin', count: 3 },
        { code: 'dental-hygiene', label: 'Zahnprophylaxe', count: 1 },
        { code: 'dental-implants', label: 'Implantologie', count: 1 },
        { code: 'general-practice', label: 'Allgemeinmedizin', count: 1 },
        { code: 'internal-medicine', label: 'Innere Medizin', count: 1 },
        { code: 'orthodontics', label: 'Kieferorthopädie', count: 1 },
        { code: 'pediatrics', label: 'Kinderheilkunde', count: 1 },
        { code: 'sports-medicine', label: 'Sportmedizin', count: 1 },
      ],
    });
    expect(await list('country=ES&lang=en')).toEqual({
      specialties: [
        { code: 'dentistry', label: 'Dentistry', count: 1 },
        { code: 'orthodontics', label: 'Orthodontics', count: 1 },
        { code: 'pediatrics', label: 'Paediatrics', count: 1 },
      ],
    });
    expect(await list('country=fr')).toEqual({ specialties: [] });
  });

  it('counts exactly what search finds with specialty=<code>', async () => {
    for (const country of ['de', 'es']) {
      for (const { code, count } of (await list(`country=${country}`)).specialties) {
        expect(ids(await search(`country=${country}&specialty=${code}&limit=100`)), code).toHaveLength(
          count ?? -1,
        );
      }
    }
  });

  it('filters search by one code, across languages and spellings, combined with the other filters', async () => {
    expect(ids(await search('country=de&specialty=dentistry'))).toEqual([
      'de-zahn-1',
      'de-zahn-2',
      'de-zahn-3',
    ]);
    expect(ids(await search('country=de&specialty=pediatrics'))).toEqual(['de-kind']);
    expect(ids(await search('country=es&specialty=pediatrics'))).toEqual(['es-ped']);
    expect(ids(await search('country=de&specialty=internal-medicine&q=praxis'))).toEqual(['de-haus']);
    expect(ids(await search('country=de&specialty=dentistry&q=zahn-2'))).toEqual(['de-zahn-2']);
    expect(ids(await search('country=de&specialty=cardiology'))).toEqual([]);
    // The codes are not added to the records: specialtyCodes comes back only when named in fields.
    for (const doctor of (await search('country=de&specialty=dentistry')).doctors) {
      expect(Object.keys(doctor)).toEqual([...DOCTOR_KEYS]);
    }
  });

  it('pages a specialty search with cursors bound to the code', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page: Page = await search(`country=de&specialty=dentistry&limit=1${suffix}`);
      seen.push(...ids(page));
      cursor = page.page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(['de-zahn-1', 'de-zahn-2', 'de-zahn-3']);

    const first = await search('country=de&specialty=dentistry&limit=1');
    const next = encodeURIComponent(first.page.nextCursor ?? '');
    for (const query of [`country=de&cursor=${next}`, `country=de&specialty=pediatrics&cursor=${next}`]) {
      const problem = expectProblem(await get(`/api/v1/doctors?${query}`), 400);
      expect(problem.errors.map((error) => error.parameter)).toEqual(['cursor']);
    }
  });

  it('refuses an unknown code with a reason naming the list, and names specialty only to requests using it', async () => {
    for (const value of ['dentist', 'Dentistry', 'zahnarzt', '']) {
      const problem = expectProblem(await get(`/api/v1/doctors?country=de&specialty=${value}`), 400);
      expect(problem.errors, value).toEqual([
        { parameter: 'specialty', reason: expect.stringContaining('GET /api/v1/specialties') as unknown },
      ]);
    }
    expect(
      expectProblem(await get('/api/v1/doctors?country=de&specialty=dentistry&specialty=pediatrics'), 400)
        .errors,
    ).toEqual([{ parameter: 'specialty', reason: 'must be given once' }]);
    const [withSpecialty] = expectProblem(
      await get('/api/v1/doctors?country=de&specialty=dentistry&colour=blue'),
      400,
    ).errors;
    expect(withSpecialty?.reason).toMatch(/known: .*radius, specialty, openAt, openNow, limit/);
    const [without] = expectProblem(await get('/api/v1/doctors?country=de&colour=blue'), 400).errors;
    expect(without?.reason).not.toMatch(/specialty/);
  });

  it.each([
    ['lang=xx', ['lang']],
    ['lang=english', ['lang']],
    ['lang=', ['lang']],
    ['country=xx', ['country']],
    ['country=de&country=es', ['country']],
    ['lang=de&lang=en', ['lang']],
    ['country=de&limit=5', ['limit']],
    ['country=xx&lang=xx&q=a', ['q', 'country', 'lang']],
  ])('refuses %j with 400 naming each bad parameter', async (query, parameters) => {
    const problem = expectProblem(await get(`/api/v1/specialties?${query}`), 400);
    expect(problem.errors.map((error) => error.parameter)).toEqual(parameters);
  });

  it('names its own parameters for an unknown one, and needs a key like every route', async () => {
    expect(expectProblem(await get('/api/v1/specialties?q=zahn'), 400).errors).toEqual([
      {
        parameter: 'q',
        reason: 'is not a known parameter (known: country, lang; names are case-sensitive)',
      },
    ]);
    expectProblem(await api.call({ url: '/api/v1/specialties' }), 401);
    expect(expectProblem(await get('/api/v1/specialties?api_key=x'), 400).type).toBe(
      '/problems/key-in-query',
    );
  });

  it('is described in /openapi.json with open response schemas', async () => {
    type Document = {
      paths: {
        [path: string]: {
          get?: {
            parameters?: Array<{ name: string; in: string; required?: boolean }>;
            description?: string;
          };
        };
      };
      components: { schemas: { [name: string]: { additionalProperties?: unknown } } };
    };
    const document = (await api.call({ url: '/openapi.json' })).json<Document>();
    const operation = document.paths['/api/v1/specialties']?.get;
    // Query parameters only: every keyed GET also documents the If-None-Match header (HTTP caching).
    const queryParameters = operation?.parameters?.filter((parameter) => parameter.in === 'query');
    expect(queryParameters?.map(({ name, required }) => ({ name, required }))).toEqual([
      { name: 'country', required: false },
      { name: 'lang', required: false },
    ]);
    const searchParameters = document.paths['/api/v1/doctors']?.get?.parameters ?? [];
    expect(searchParameters).toContainEqual(expect.objectContaining({ name: 'specialty', required: false }));
    expect(document.components.schemas.Specialty?.additionalProperties).toEqual({});
    expect(document.components.schemas.SpecialtyList?.additionalProperties).toEqual({});
  });
});
