import { describe, expect, it } from 'vitest';
import {
  CITIES_DEFAULT_LIMIT,
  buildCitiesRequest,
  buildCityCountsRequest,
  parseCitiesParams,
  toCitiesPage,
} from '../src/search/city-list.js';

const DATASET = [{ term: { served: true } }, { term: { country: 'de' } }];
const ORDER = [{ _count: 'desc' }, { _key: 'asc' }];

describe('parseCitiesParams', () => {
  it('takes country (any case), an optional trimmed q and a limit', () => {
    expect(parseCitiesParams({ country: 'DE' })).toEqual({
      ok: true,
      value: { country: 'de', limit: CITIES_DEFAULT_LIMIT },
    });
    expect(parseCitiesParams({ country: 'es', q: '  San Seb ', limit: '500' })).toEqual({
      ok: true,
      value: { country: 'es', q: 'San Seb', limit: 500 },
    });
    expect(parseCitiesParams({ country: 'es', q: '   ' })).toEqual({
      ok: true,
      value: { country: 'es', limit: CITIES_DEFAULT_LIMIT },
    });
  });

  it('reports every bad parameter at once, with the rules of every operation', () => {
    expect(parseCitiesParams({ limit: '501', q: 'ä'.repeat(101), city: 'berlin', token: 'x' })).toEqual({
      ok: false,
      error: [
        {
          parameter: 'city',
          reason: 'is not a known parameter (known: country, q, limit; names are case-sensitive)',
        },
        { parameter: 'token', reason: expect.stringMatching(/never be sent in the URL/) as unknown },
        { parameter: 'country', reason: 'is required; must be one of de, es, fr, gb, it, mx, pt' },
        { parameter: 'q', reason: 'must be at most 100 characters' },
        { parameter: 'limit', reason: 'must be an integer from 1 to 500' },
      ],
    });
  });
});

describe('cities requests', () => {
  it('aggregates the served records of the dataset by slug, most first, with the commonest name', () => {
    expect(buildCitiesRequest({ country: 'de', limit: 7 })).toEqual({
      size: 0,
      query: { bool: { filter: DATASET } },
      aggs: {
        cities: {
          terms: { field: 'citySlug', size: 7, order: ORDER },
          aggs: { names: { terms: { field: 'cityName', size: 1, order: ORDER } } },
        },
      },
      track_total_hits: false,
    });
  });

  it('matches q as a prefix of the folded name or of the slug', () => {
    expect(buildCitiesRequest({ country: 'de', q: 'Bad  Nau', limit: 5 }).query.bool.filter[2]).toEqual({
      bool: {
        should: [{ prefix: { cityKey: 'bad nau' } }, { prefix: { citySlug: 'bad-nau' } }],
        minimum_should_match: 1,
      },
    });
    // Nothing slug-like in q: only the name can match.
    expect(buildCitiesRequest({ country: 'de', q: '!!!', limit: 5 }).query.bool.filter[2]).toEqual({
      bool: { should: [{ prefix: { cityKey: '!!!' } }], minimum_should_match: 1 },
    });
  });

  it('counts given slugs whole', () => {
    const body = buildCityCountsRequest('de', ['berlin', 'bonn']);
    expect(body.query.bool.filter).toEqual([...DATASET, { terms: { citySlug: ['berlin', 'bonn'] } }]);
    expect(body.aggs.cities.terms.size).toBe(2);
  });

  it('turns buckets into the list, a city without a published name named null', () => {
    expect(
      toCitiesPage({
        cities: {
          buckets: [
            { key: 'berlin', doc_count: 4, names: { buckets: [{ key: 'Berlin' }] } },
            { key: 'bad-nauheim', doc_count: 1, names: { buckets: [] } },
          ],
        },
      }),
    ).toEqual({
      cities: [
        { slug: 'berlin', name: 'Berlin', count: 4 },
        { slug: 'bad-nauheim', name: null, count: 1 },
      ],
    });
    expect(toCitiesPage(undefined)).toEqual({ cities: [] });
  });
});
