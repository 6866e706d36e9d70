import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeState } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

type CityList = { cities: Array<{ slug: string; name: string | null; count: number }> };

const inCity = (id: string, citySlug: string, city: string | null, extra: object = {}) =>
  placeState({ id, name: `Praxis ${id}`, citySlug, city, ...extra });

const PLACES = [
  inCity('b1', 'berlin', 'Berlin'),
  inCity('b2', 'berlin', 'Berlin'),
  inCity('b3', 'berlin', 'Berlin'),
  // One record spells its city otherwise: the most common spelling names the city.
  inCity('b4', 'berlin', 'Berlin-Mitte'),
  inCity('m1', 'muenchen', 'München'),
  inCity('m2', 'muenchen', 'München'),
  inCity('m3', 'muenchen', 'Muenchen'),
  inCity('h1', 'hamburg', 'Hamburg'),
  inCity('h2', 'hamburg', 'Hamburg'),
  inCity('h3', 'hamburg', 'Hamburg'),
  inCity('a1', 'aachen', 'Aachen'),
  inCity('n1', 'bad-nauheim', null),
  // Never counted: not served.
  inCity('x1', 'aachen', 'Aachen', { closed: true }),
  inCity('x2', 'zwickau', 'Zwickau', { suppressed: true }),
  inCity('s1', 'san-sebastian', 'San Sebastián', { country: 'es' }),
  inCity('s2', 'san-sebastian', 'Donostia', { country: 'es' }),
  inCity('s3', 'sevilla', 'Sevilla', { country: 'es' }),
];

describe('GET /api/v1/cities', () => {
  let api: KeyedApi;

  beforeAll(async () => {
    api = await createKeyedApi('api-cities', PLACES);
  });
  afterAll(() => api.close());

  const cities = (query: string) => api.get(`/api/v1/cities?${query}`);
  const list = async (query: string): Promise<CityList> => {
    const response = await cities(query);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['ratelimit-policy']).toBeDefined();
    return response.json<CityList>();
  };

  it('lists the served cities of a dataset, most records first, then slug, with the commonest name', async () => {
    expect(await list('country=de')).toEqual({
      cities: [
        { slug: 'berlin', name: 'Berlin', count: 4 },
        { slug: 'hamburg', name: 'Hamburg', count: 3 },
        { slug: 'muenchen', name: 'München', count: 3 },
        { slug: 'aachen', name: 'Aachen', count: 1 },
        { slug: 'bad-nauheim', name: null, count: 1 },
      ],
    });
    expect((await list('country=ES')).cities.map((city) => city.slug)).toEqual(['san-sebastian', 'sevilla']);
    expect(await list('country=fr')).toEqual({ cities: [] });
  });

  it('keeps the first limit cities', async () => {
    expect((await list('country=de&limit=2')).cities.map((city) => city.slug)).toEqual(['berlin', 'hamburg']);
  });

  it('narrows by a prefix of the name or slug, case- and accent-insensitively, counting whole cities', async () => {
    const slugs = async (q: string) => (await list(`country=de&q=${encodeURIComponent(q)}`)).cities;
    expect(await slugs('MÜN')).toEqual([{ slug: 'muenchen', name: 'München', count: 3 }]);
    expect(await slugs('muenc')).toEqual([{ slug: 'muenchen', name: 'München', count: 3 }]);
    // "Berlin-Mitte" matches only one record; the count is Berlin's.
    expect(await slugs('berlin-mi')).toEqual([{ slug: 'berlin', name: 'Berlin', count: 4 }]);
    expect((await slugs('ba')).map((city) => city.slug)).toEqual(['bad-nauheim']);
    expect((await slugs('  ')).length).toBe(5);
    expect(await slugs('x')).toEqual([]);
    expect(await slugs('!!!')).toEqual([]);
    expect((await list('country=es&q=san%20seb')).cities).toEqual([
      { slug: 'san-sebastian', name: 'Donostia', count: 2 },
    ]);
    expect((await list('country=es&q=donos')).cities.map((city) => city.slug)).toEqual(['san-sebastian']);
  });

  it('lists slugs that search accepts as city', async () => {
    for (const { slug, count } of (await list('country=de')).cities) {
      const response = await api.get(`/api/v1/doctors?country=de&city=${slug}&limit=100`);
      expect(response.json<{ doctors: unknown[] }>().doctors).toHaveLength(count);
    }
  });

  it.each([
    ['', ['country']],
    ['country=xx', ['country']],
    ['country=de&limit=0', ['limit']],
    ['country=de&limit=501', ['limit']],
    [`country=de&q=${'a'.repeat(101)}`, ['q']],
    ['country=de&q=a&q=b', ['q']],
    ['country=de&city=berlin', ['city']],
  ])('refuses %j with 400 naming each bad parameter', async (query, parameters) => {
    const problem = expectProblem(await cities(query), 400);
    expect(problem.errors.map((error) => error.parameter)).toEqual(parameters);
  });

  it('names its own parameters for an unknown one, and needs a key like every route', async () => {
    expect(expectProblem(await cities('country=de&sort=name'), 400).errors).toEqual([
      {
        parameter: 'sort',
        reason: 'is not a known parameter (known: country, q, limit; names are case-sensitive)',
      },
    ]);
    expectProblem(await api.call({ url: '/api/v1/cities?country=de' }), 401);
    expect(expectProblem(await cities('country=de&api_key=x'), 400).type).toBe('/problems/key-in-query');
  });
});
