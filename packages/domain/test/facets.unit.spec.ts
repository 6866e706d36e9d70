import { describe, expect, it } from 'vitest';
import {
  FACET_LIMIT_MAX,
  FACET_NAMES,
  buildFacetAggregations,
  parseFacetNames,
  toFacets,
  valuesAggregation,
  type FacetsResponse,
} from '../src/search/facets.js';
import { parseFacetValuesParams, toFacetValuesPage } from '../src/search/facet-values.js';
import { filteredQueryOf, buildSearchRequest } from '../src/search/search-query.js';
import { parseSearchParams, parseSearchToolInput } from '../src/search/search-params.js';
import { SEARCH_FILTERS } from '../src/search/search-filters.js';

const SERVED = { term: { served: true } };

describe('facets and facetLimit parameters', () => {
  const parse = (query: Record<string, string>) => parseSearchParams({ country: 'de', ...query });

  it('takes a comma list of facet names, each once, with facetLimit or its default of 10', () => {
    expect(parse({ facets: 'specialty,city' })).toMatchObject({
      ok: true,
      value: { facets: { names: ['specialty', 'city'], limit: 10 } },
    });
    expect(parse({ facets: FACET_NAMES.join(','), facetLimit: '100' })).toMatchObject({
      ok: true,
      value: { facets: { names: FACET_NAMES, limit: 100 } },
    });
    expect(parse({})).toMatchObject({ ok: true, value: { country: 'de' } });
    const { value } = parse({}) as { value: object };
    expect(value).not.toHaveProperty('facets');
  });

  it('names no facet for a filter without a stored value to count', () => {
    for (const name of ['openNow', 'openAt', 'q', 'near', 'bbox', 'updatedSince', 'country', 'languages']) {
      expect(parseFacetNames(name), name).toBeNull();
    }
  });

  it('refuses unknown, repeated and empty names, and a facetLimit out of range or alone', () => {
    for (const facets of ['nope', 'city,city', 'city,', '', ',', 'City', 'city ,verified']) {
      expect(parse({ facets }), facets).toMatchObject({
        ok: false,
        error: [{ parameter: 'facets', reason: expect.stringContaining('facet names') as string }],
      });
    }
    for (const facetLimit of ['0', '101', '1.5', 'ten', '-1', '0010']) {
      expect(parse({ facets: 'city', facetLimit }), facetLimit).toMatchObject({
        ok: false,
        error: [{ parameter: 'facetLimit', reason: `must be an integer from 1 to ${FACET_LIMIT_MAX}` }],
      });
    }
    expect(parse({ facetLimit: '5' })).toEqual({
      ok: false,
      error: [
        {
          parameter: 'facetLimit',
          reason: expect.stringContaining('only applies together with facets') as string,
        },
      ],
    });
  });

  it('lists facets among the known parameters only for a request that uses an API 1.4 parameter', () => {
    const old = parse({ nope: 'x' });
    const newer = parse({ nope: 'x', facets: 'city' });
    expect(JSON.stringify(old)).not.toContain('facets');
    expect(JSON.stringify(newer)).toContain('facetLimit');
  });

  it('takes the same list in tool arguments, facetLimit as a number', () => {
    expect(parseSearchToolInput({ country: 'de', facets: 'verified', facetLimit: 3 })).toMatchObject({
      ok: true,
      value: { facets: { names: ['verified'], limit: 3 } },
    });
    expect(parseSearchToolInput({ country: 'de', facets: 'verified', facetLimit: '3' })).toMatchObject({
      ok: false,
    });
  });
});

describe('the facet aggregations of a search', () => {
  const filters = {
    country: 'de' as const,
    specialty: 'dentistry' as const,
    verified: true,
    q: 'praxis',
  };
  const facets = { names: ['specialty', 'verified', 'city'] as const, limit: 7 };
  const body = buildSearchRequest(
    filters,
    25,
    undefined,
    undefined,
    {},
    {},
    {
      names: [...facets.names],
      limit: facets.limit,
    },
  );

  it('leaves the hits query as it is without facets', () => {
    const without = buildSearchRequest(filters, 25);
    expect({ ...body, aggs: undefined }).toEqual({ ...without, aggs: undefined });
    expect(without).not.toHaveProperty('aggs');
  });

  it("counts each facet under every clause of the search but its own filter's", () => {
    const all = filteredQueryOf(body).bool;
    const specialtyClause = { term: { specialtyCodes: 'dentistry' } };
    const verifiedClause = { term: { verified: true } };
    expect(all.filter).toEqual([SERVED, { term: { country: 'de' } }, verifiedClause, specialtyClause]);
    const aggs = body.aggs?.facets.aggs;
    expect(body.aggs?.facets.global).toEqual({});
    expect(aggs?.specialty?.filter.bool).toEqual({
      filter: [SERVED, { term: { country: 'de' } }, verifiedClause],
      must: all.must,
    });
    expect(aggs?.verified?.filter.bool).toEqual({
      filter: [SERVED, { term: { country: 'de' } }, specialtyClause],
      must: all.must,
    });
    // No city filter: the city facet counts under the whole search.
    expect(aggs?.city?.filter.bool).toEqual({ filter: all.filter, must: all.must });
    expect(Object.keys(aggs ?? {})).toEqual(['specialty', 'verified', 'city']);
  });

  it('limits coded facets to their vocabulary, each shard sending all of it', () => {
    const specialty = valuesAggregation('specialty', 'de', 7).terms;
    expect(specialty.field).toBe(SEARCH_FILTERS.specialty.field);
    expect(specialty.size).toBe(7);
    expect(specialty.include).toContain('dentistry');
    expect(specialty.shard_size).toBe(specialty.include?.length);
    expect(valuesAggregation('insurance', 'de', 7).terms.include).toEqual(['gkv', 'pkv']);
    expect(valuesAggregation('insurance', 'mx', 7).terms.include).toEqual([]);
    expect(valuesAggregation('city', 'de', 7).aggs?.names.terms.field).toBe('cityName');
  });

  it('a facet without another clause than the served rule and country has no must', () => {
    const aggs = buildFacetAggregations(
      { names: ['city'], limit: 3 },
      'de',
      [{ from: 'served', clause: SERVED }],
      [],
    );
    expect(aggs.facets.aggs.city?.filter).toEqual({ bool: { filter: [SERVED] } });
  });
});

describe('toFacets', () => {
  const response: FacetsResponse = {
    facets: {
      specialty: { values: { buckets: [{ key: 'dentistry', doc_count: 4 }] } },
      verified: {
        values: {
          buckets: [
            { key: 1, key_as_string: 'true', doc_count: 3 },
            { key: 0, key_as_string: 'false', doc_count: 2 },
          ],
        },
      },
      city: {
        values: { buckets: [{ key: 'berlin', doc_count: 5, names: { buckets: [{ key: 'Berlin' }] } }] },
      },
      insurance: { values: { buckets: [{ key: 'gkv', doc_count: 1 }] } },
      language: { values: { buckets: [{ key: 'en', doc_count: 2 }] } },
    },
  };
  const all = {
    names: ['specialty', 'verified', 'city', 'insurance', 'language', 'whatsapp'],
    limit: 10,
  } as const;

  it('turns buckets into values as their filter takes them, labels in lang', () => {
    expect(toFacets({ ...all, names: [...all.names] }, 'de', 'de', response)).toEqual({
      specialty: [{ value: 'dentistry', count: 4, label: 'Zahnmedizin' }],
      verified: [
        { value: 'true', count: 3 },
        { value: 'false', count: 2 },
      ],
      city: [{ value: 'berlin', count: 5, label: 'Berlin' }],
      insurance: [{ value: 'gkv', count: 1, label: 'Gesetzliche Krankenversicherung' }],
      language: [{ value: 'en', count: 2 }],
      whatsapp: [],
    });
    expect(
      toFacets({ names: ['specialty'], limit: 10 }, 'de', undefined, response).specialty?.[0]?.label,
    ).toBe('Dentistry');
  });

  it('lists every facet asked for, empty without an index', () => {
    expect(toFacets({ names: ['city', 'verified'], limit: 10 }, 'de', 'en', undefined)).toEqual({
      city: [],
      verified: [],
    });
  });
});

describe('the facet-value search', () => {
  it('validates the facet name with the query string, every error at once', () => {
    expect(parseFacetValuesParams('specialty', { country: 'DE', q: 'zahn', lang: 'DE' })).toEqual({
      ok: true,
      value: { name: 'specialty', country: 'de', q: 'zahn', limit: 10, lang: 'de' },
    });
    expect(parseFacetValuesParams('openNow', { limit: '0', other: 'x' })).toMatchObject({
      ok: false,
      error: [
        { parameter: 'name', reason: expect.stringContaining('must be a facet name') as string },
        { parameter: 'other' },
        { parameter: 'country' },
        { parameter: 'limit' },
      ],
    });
  });

  it('matches the folded value or label as a prefix and keeps the first limit values', () => {
    const buckets = [
      { key: 'general-practice', doc_count: 9 },
      { key: 'dentistry', doc_count: 4 },
      { key: 'orthodontics', doc_count: 2 },
    ];
    const page = (q: string | undefined, limit = 10) =>
      toFacetValuesPage(
        { name: 'specialty', country: 'de', lang: 'de', limit, ...(q === undefined ? {} : { q }) },
        { facets: { specialty: { values: { buckets } } } },
      ).values.map((value) => value.value);
    expect(page('ZAHN')).toEqual(['dentistry']);
    expect(page('allgemein')).toEqual(['general-practice']);
    expect(page('gen')).toEqual(['general-practice']);
    expect(page(undefined, 2)).toEqual(['general-practice', 'dentistry']);
    expect(page('nothing')).toEqual([]);
  });
});
