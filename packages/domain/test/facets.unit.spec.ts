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
import {
  buildFacetValuesRequest,
  parseFacetValuesParams,
  toFacetValuesPage,
} from '../src/search/facet-values.js';
import { openAtClause } from '../src/search/open-at.js';
import { buildFacetsRequest, buildSearchRequest, filteredQueryOf } from '../src/search/search-query.js';
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

  it('names no facet for a filter that is not a list of values', () => {
    expect(parseFacetNames('openNow')).toEqual(['openNow']);
    for (const name of ['openAt', 'q', 'near', 'bbox', 'updatedSince', 'country', 'languages']) {
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
  const facets = { names: ['city', 'verified', 'specialty'], limit: 7 } as const;
  const body = buildFacetsRequest(filters, { names: [...facets.names], limit: facets.limit });
  const page = buildSearchRequest(filters, 25);

  it('counts among the records the page selects, whatever its size, cursor or order', () => {
    expect(body).toMatchObject({ size: 0, track_total_hits: false, query: filteredQueryOf(page) });
    expect(page).not.toHaveProperty('aggs');
    // The same facets in any order make the same request (one cache entry).
    const reordered = buildFacetsRequest(filters, { names: ['specialty', 'city', 'verified'], limit: 7 });
    expect(JSON.stringify(reordered)).toBe(JSON.stringify(body));
  });

  it("counts each facet under every clause of the search but its own filter's", () => {
    const all = filteredQueryOf(page).bool;
    const specialtyClause = { term: { specialtyCodes: 'dentistry' } };
    const verifiedClause = { term: { verified: true } };
    expect(all.filter).toEqual([SERVED, { term: { country: 'de' } }, verifiedClause, specialtyClause]);
    const aggs = body.aggs.facets?.aggs;
    expect(body.aggs.facets?.global).toEqual({});
    expect(aggs?.specialty?.filter.bool).toEqual({
      filter: [SERVED, { term: { country: 'de' } }, verifiedClause],
      must: all.must,
    });
    expect(aggs?.verified?.filter.bool).toEqual({
      filter: [SERVED, { term: { country: 'de' } }, specialtyClause],
      must: all.must,
    });
    // No city filter: the city facet counts among the search's own records, under its query.
    expect(Object.keys(aggs ?? {})).toEqual(['specialty', 'verified']);
    expect(body.aggs.matching).toEqual({
      filter: { match_all: {} },
      aggs: { city: { filter: { match_all: {} }, aggs: { values: valuesAggregation('city', 'de', 7) } } },
    });
  });

  it("counts openNow among the search's records open at the request time, filtered by it or not", () => {
    const requestTime = new Date('2026-03-04T10:00:00Z');
    const openNow = { names: ['openNow' as const], limit: 10 };
    const open = openAtClause('de', requestTime);
    for (const withFilter of [filters, { ...filters, openNow: true as const }]) {
      expect(buildFacetsRequest(withFilter, openNow, requestTime).aggs).toEqual({
        matching: { filter: { match_all: {} }, aggs: { openNow: { filter: open } } },
      });
    }
    expect(() => buildFacetsRequest(filters, openNow)).toThrow('openNow needs the request time');
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

  it('a facet without another clause than its own and the served rule has no must', () => {
    const aggs = buildFacetAggregations<{ term: Record<string, string | boolean> }, never>(
      { names: ['city'], limit: 3 },
      'de',
      [
        { from: 'served', clause: SERVED },
        { from: 'city', clause: { term: { citySlug: 'berlin' } } },
      ],
      [],
    );
    expect(aggs.facets?.aggs.city?.filter).toEqual({ bool: { filter: [SERVED] } });
    expect(aggs).not.toHaveProperty('matching');
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
    },
    // The facets the search sets no filter of: counted under its query.
    matching: {
      insurance: { values: { buckets: [{ key: 'gkv', doc_count: 1 }] } },
      language: { values: { buckets: [{ key: 'en', doc_count: 2 }] } },
      openNow: { doc_count: 6 },
    },
  };
  const all = {
    names: ['specialty', 'verified', 'city', 'insurance', 'language', 'whatsapp', 'openNow'],
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
      openNow: [{ value: 'true', count: 6 }],
    });
    expect(
      toFacets({ names: ['openNow'], limit: 10 }, 'de', 'en', { matching: { openNow: { doc_count: 0 } } }),
    ).toEqual({ openNow: [] });
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
    expect(parseFacetValuesParams('openAt', { limit: '0', other: 'x' })).toMatchObject({
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

  it('counts openNow in the whole dataset at the request time, its one value true', () => {
    const requestTime = new Date('2026-03-04T10:00:00Z');
    const params = { name: 'openNow', country: 'es', lang: 'en', limit: 10 } as const;
    const request = buildFacetValuesRequest(params, requestTime);
    expect(request.aggs.facets.aggs).toEqual({
      openNow: {
        filter: { bool: { filter: [...request.query.bool.filter, openAtClause('es', requestTime)] } },
      },
    });
    const answer = { facets: { openNow: { doc_count: 12 } } };
    expect(toFacetValuesPage(params, answer).values).toEqual([{ value: 'true', count: 12 }]);
    expect(toFacetValuesPage({ ...params, q: 'tr' }, answer).values).toEqual([{ value: 'true', count: 12 }]);
    expect(toFacetValuesPage({ ...params, q: 'f' }, answer).values).toEqual([]);
    expect(toFacetValuesPage(params, { facets: { openNow: { doc_count: 0 } } }).values).toEqual([]);
  });
});
