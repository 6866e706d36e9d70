import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeState } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

type Suggestion =
  | { type: 'specialty'; code: string; label: string }
  | { type: 'city'; citySlug: string; name: string }
  | { type: 'doctor'; id: string; name: string; city: string | null };

const place = (id: string, name: string, city: string, citySlug: string, primaryType: string, extra = {}) =>
  placeState({ id, name, city, citySlug, primaryType, ...extra });

const PLACES = [
  place('z1', 'Zahnarztpraxis Dr. Müller', 'München', 'muenchen', 'Zahnarzt'),
  place('z2', 'Praxis Anna Mueller', 'Berlin', 'berlin', 'Zahnarzt'),
  place('k1', 'Kinderarztpraxis Schmidt', 'Berlin', 'berlin', 'Kinderarzt'),
  place('h1', 'Hausarztpraxis Weber', 'Bad Nauheim', 'bad-nauheim', 'Hausarzt'),
  place('m1', 'Müllheimer Praxis', 'Müllheim', 'muellheim', 'Arztpraxis'),
  // Never suggested: not served.
  place('x1', 'Praxis Müllerstein', 'Müllrose', 'muellrose', 'Zahnarzt', { closed: true }),
  place('s1', 'Clínica Müller', 'San Sebastián', 'san-sebastian', 'Dentista', { country: 'es' }),
];

const doctor = (id: string, name: string, city: string) => ({ type: 'doctor', id, name, city });

describe('GET /api/v1/suggest', () => {
  let api: KeyedApi;

  beforeAll(async () => {
    api = await createKeyedApi('api-suggest', PLACES);
  });
  afterAll(() => api.close());

  const suggest = (query: string) => api.get(`/api/v1/suggest?${query}`);
  const suggestions = async (query: string): Promise<Suggestion[]> => {
    const response = await suggest(query);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['ratelimit-policy']).toBeDefined();
    expect(response.headers.etag).toBeDefined();
    const body = response.json<{ suggestions: Suggestion[] }>();
    expect(Object.keys(body)).toEqual(['suggestions']);
    return body.suggestions;
  };
  const q = (text: string, more = '') => suggestions(`country=de&q=${encodeURIComponent(text)}${more}`);

  it('suggests cities and doctors, case- and accent-insensitively, names starting with the text first', async () => {
    const expected = [
      { type: 'city', citySlug: 'muellheim', name: 'Müllheim' },
      doctor('m1', 'Müllheimer Praxis', 'Müllheim'),
      doctor('z1', 'Zahnarztpraxis Dr. Müller', 'München'),
    ];
    expect(await q('mül')).toEqual(expected);
    expect(await q('MUL')).toEqual(expected);
    expect(await q('  Mul  ')).toEqual(expected);
    // Another dataset, its own records; country in any case.
    expect(await suggestions('country=ES&q=mul')).toEqual([doctor('s1', 'Clínica Müller', 'San Sebastián')]);
  });

  it('suggests the specialties whose labels or synonyms match, in the dataset only, labelled in lang', async () => {
    expect(await q('zahn')).toEqual([
      { type: 'specialty', code: 'dentistry', label: 'Dentistry' },
      doctor('z1', 'Zahnarztpraxis Dr. Müller', 'München'),
      doctor('z2', 'Praxis Anna Mueller', 'Berlin'),
    ]);
    expect((await q('zahn', '&lang=DE'))[0]).toEqual({
      type: 'specialty',
      code: 'dentistry',
      label: 'Zahnmedizin',
    });
    expect(await q('kinderh')).toEqual([{ type: 'specialty', code: 'pediatrics', label: 'Paediatrics' }]);
    // No record of the dataset is a cardiologist; Spain's dentist matches a Spanish synonym.
    expect(await q('kardio')).toEqual([]);
    expect((await suggestions('country=es&q=dentis'))[0]).toEqual({
      type: 'specialty',
      code: 'dentistry',
      label: 'Dentistry',
    });
  });

  it('matches a later word of a city, and the last typed word as a prefix with earlier ones whole', async () => {
    expect(await q('nauh')).toEqual([
      { type: 'city', citySlug: 'bad-nauheim', name: 'Bad Nauheim' },
      doctor('h1', 'Hausarztpraxis Weber', 'Bad Nauheim'),
    ]);
    expect((await q('bad n'))[0]).toEqual({ type: 'city', citySlug: 'bad-nauheim', name: 'Bad Nauheim' });
    expect((await suggestions('country=es&q=san-seb'))[0]).toEqual({
      type: 'city',
      citySlug: 'san-sebastian',
      name: 'San Sebastián',
    });
    expect(await q('dr mü')).toEqual([doctor('z1', 'Zahnarztpraxis Dr. Müller', 'München')]);
    expect(await q('d mü')).toEqual([]);
    expect(await q('!!!')).toEqual([]);
  });

  it('keeps the first limit suggestions', async () => {
    expect(await q('praxis')).toEqual([
      doctor('z2', 'Praxis Anna Mueller', 'Berlin'),
      doctor('m1', 'Müllheimer Praxis', 'Müllheim'),
    ]);
    expect(await q('praxis', '&limit=1')).toEqual([doctor('z2', 'Praxis Anna Mueller', 'Berlin')]);
    expect(await q('mül', '&limit=2')).toEqual([
      { type: 'city', citySlug: 'muellheim', name: 'Müllheim' },
      doctor('m1', 'Müllheimer Praxis', 'Müllheim'),
    ]);
  });

  it('answers only the fields of each kind, and what it names is what the next call takes', async () => {
    const all = [...(await q('zahn')), ...(await q('mül')), ...(await q('berl'))];
    const keys = { specialty: 'code,label,type', city: 'citySlug,name,type', doctor: 'city,id,name,type' };
    for (const suggestion of all)
      expect(Object.keys(suggestion).sort().join(',')).toBe(keys[suggestion.type]);
    for (const suggestion of all) {
      const next =
        suggestion.type === 'specialty'
          ? `/api/v1/doctors?country=de&specialty=${suggestion.code}`
          : suggestion.type === 'city'
            ? `/api/v1/doctors?country=de&city=${suggestion.citySlug}`
            : `/api/v1/doctors/${suggestion.id}`;
      const response = await api.get(next);
      expect(response.statusCode, next).toBe(200);
      if (suggestion.type !== 'doctor')
        expect(response.json<{ doctors: unknown[] }>().doctors.length).toBeGreaterThan(0);
    }
  });

  it.each([
    ['', ['country', 'q']],
    ['country=de', ['q']],
    ['q=mu', ['country']],
    ['country=xx&q=mu', ['country']],
    ['country=de&q=%20%20', ['q']],
    [`country=de&q=${'ü'.repeat(101)}`, ['q']],
    ['country=de&q=mu&limit=0', ['limit']],
    ['country=de&q=mu&limit=21', ['limit']],
    ['country=de&q=mu&lang=xx', ['lang']],
    ['country=de&q=a&q=b', ['q']],
  ])('refuses %j with 400 naming each bad parameter', async (query, parameters) => {
    const problem = expectProblem(await suggest(query), 400);
    expect(problem.errors.map((error) => error.parameter).sort()).toEqual(parameters);
  });

  it('accepts 100 characters, names its own parameters for an unknown one, and needs a key in a header', async () => {
    expect(await q('ü'.repeat(100))).toEqual([]);
    expect(expectProblem(await suggest('country=de&q=mu&city=berlin'), 400).errors).toEqual([
      {
        parameter: 'city',
        reason: 'is not a known parameter (known: country, q, limit, lang; names are case-sensitive)',
      },
    ]);
    expectProblem(await api.call({ url: '/api/v1/suggest?country=de&q=mu' }), 401);
    expect(expectProblem(await suggest('country=de&q=mu&api_key=x'), 400).type).toBe(
      '/problems/key-in-query',
    );
  });
});
