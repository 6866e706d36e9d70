import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../src/search/cursor.js';
import { arcDistanceMeters, parseBbox } from '../src/search/geo.js';
import {
  compoundParts,
  indexedWords,
  joinedWords,
  specialtyNamesOf,
  wordsOf,
} from '../src/search/search-analysis.js';
import { boundSortOrder, defaultSortOrder, sortOrderOf } from '../src/search/search-order.js';
import { parseSearchParams } from '../src/search/search-params.js';
import {
  buildSearchRequest,
  filteredQueryOf,
  toDoctorPage,
  type SearchHit,
} from '../src/search/search-query.js';
import {
  JOINED_WEIGHT,
  relevanceTextQuery,
  RELEVANCE_FIELDS,
  TYPO_FUZZINESS,
} from '../src/search/search-relevance.js';
import { toDoctor } from '../src/places/doctor.js';
import { servedState, SITE_ORIGIN } from './fixtures.js';

const SECRET = 'test-cursor-secret-0123456789abcdef';

describe('search analysis', () => {
  it('folds and splits words at anything but letters and digits', () => {
    expect(wordsOf("HNO-Arzt  Dr. Müller, dell'Ospedale 24h")).toEqual([
      'hno',
      'arzt',
      'dr',
      'muller',
      'dell',
      'ospedale',
      '24h',
    ]);
    expect(wordsOf('!!!')).toEqual([]);
  });

  it('splits German compounds into known parts, linked or not, and leaves other words whole', () => {
    expect(compoundParts('zahnarztpraxis')).toEqual(['zahnarzt', 'praxis']);
    expect(compoundParts('zahnarzt')).toEqual(['zahn', 'arzt']);
    expect(compoundParts('gesundheitszentrum')).toEqual(['gesundheit', 'zentrum']);
    expect(compoundParts('frauenarzt')).toEqual(['frauen', 'arzt']);
    // Not made of known parts, too short, or a part alone: never a guess.
    expect(compoundParts('beratung')).toEqual([]);
    expect(compoundParts('arzt')).toEqual([]);
    expect(compoundParts('praxis')).toEqual([]);
    expect(compoundParts('zahnarztx')).toEqual([]);
  });

  it('indexes compounds with every part for de only', () => {
    expect(indexedWords('Kinderzahnarztpraxis', 'de')).toEqual(
      expect.arrayContaining(['kinderzahnarztpraxis', 'praxis', 'zahnarzt', 'zahn', 'arzt']),
    );
    expect(indexedWords('Zahnarztpraxis', 'es')).toEqual(['zahnarztpraxis']);
  });

  it('splits any word in time bounded by its length (no backtracking blow-up)', () => {
    const hostile = 'haus'.repeat(16) + 'x';
    const started = performance.now();
    for (let index = 0; index < 100; index += 1) compoundParts(hostile);
    expect(performance.now() - started).toBeLessThan(500);
    expect(compoundParts('haus'.repeat(16))).toHaveLength(16);
    expect(compoundParts('haus'.repeat(17))).toEqual([]);
  });

  it('joins each pair of neighbouring words of a text, never across texts nor with a short word', () => {
    expect(joinedWords(['Clínica Dental Sonrisa', 'Zahnarzt-Praxis Dr. Ana Weiß'])).toEqual([
      'clinicadental',
      'dentalsonrisa',
      'zahnarztpraxis',
      'anaweiss',
    ]);
    expect(joinedWords(['Dental', 'Clínica'])).toEqual([]);
    expect(joinedWords(['La Coruña'])).toEqual([]);
  });

  it('names a specialty code in every page language, its synonyms and the code itself', () => {
    const names = specialtyNamesOf(['dentistry', 'no-such-code']);
    expect(names).toEqual(
      expect.arrayContaining(['dentistry', 'Dentist', 'Zahnarzt', 'Dentista', 'Dentiste']),
    );
    expect(specialtyNamesOf(['no-such-code'])).toEqual([]);
  });
});

describe('the relevance query', () => {
  it('requires every word in one field, scores exact above corrected, and the last word as a prefix', () => {
    const query = relevanceTextQuery('Zahnarzt Ber', 'de');
    if (query === null) throw new Error('expected a query');
    const [{ bool: words }] = query.bool.must;
    expect(words.minimum_should_match).toBe(2);
    const [first, last] = words.should;
    const fields = Object.keys(RELEVANCE_FIELDS);
    // Per field an exact and a corrected match (and a prefix for the last word), and the joined pairs
    // matched exactly or corrected, never as a prefix.
    expect(first?.dis_max.queries).toHaveLength(fields.length * 2 + 2);
    expect(last?.dis_max.queries).toHaveLength(fields.length * 3 + 2);
    expect(first?.dis_max.queries).toContainEqual({
      match: { joinedText: { query: 'zahnarzt', boost: JOINED_WEIGHT } },
    });
    expect(last?.dis_max.queries).toContainEqual({
      match: {
        joinedText: { query: 'ber', boost: JOINED_WEIGHT / 2, fuzziness: TYPO_FUZZINESS, prefix_length: 1 },
      },
    });
    const joinedPrefixes = last?.dis_max.queries.filter(
      (clause) => 'prefix' in clause && 'joinedText' in clause.prefix,
    );
    expect(joinedPrefixes).toEqual([]);
    expect(first?.dis_max.queries).toContainEqual({
      match: { nameText: { query: 'zahnarzt', boost: 1.5, fuzziness: TYPO_FUZZINESS, prefix_length: 1 } },
    });
    expect(first?.dis_max.queries).toContainEqual({ match: { nameText: { query: 'zahnarzt', boost: 3 } } });
    expect(last?.dis_max.queries).toContainEqual({ prefix: { cityText: { value: 'ber', boost: 0.9 } } });
    expect(query.bool.should).toEqual([
      { match_phrase: { nameText: { query: 'zahnarzt ber', slop: 2, boost: 2 } } },
      { match_phrase: { specialtyText: { query: 'zahnarzt ber', slop: 0, boost: 2 } } },
      { match_phrase: { cityText: { query: 'zahnarzt ber', slop: 0, boost: 2 } } },
    ]);
    // One word is its own phrase: no phrase clause.
    expect(relevanceTextQuery('zahnarzt', 'de')?.bool.should).toEqual([]);
  });

  it('lets one word of four or more be missing, and makes nothing of a q without words', () => {
    expect(relevanceTextQuery('a b c d', 'de')?.bool.must[0].bool.minimum_should_match).toBe(3);
    expect(relevanceTextQuery('a b c', 'de')?.bool.must[0].bool.minimum_should_match).toBe(3);
    expect(relevanceTextQuery('!!! ...', 'de')).toBeNull();
    const body = buildSearchRequest(
      { country: 'de', q: '!!!' },
      5,
      undefined,
      undefined,
      {},
      { sort: 'relevance' },
    );
    expect(filteredQueryOf(body).bool.filter).toContainEqual({ match_none: {} });
  });

  it('orders by score then id, decays by distance with near, and reads the same shard copies per search', () => {
    const near = { lat: 52.52, lon: 13.405 };
    const body = buildSearchRequest(
      { country: 'de', q: 'praxis', near, radius: 4000 },
      5,
      [1.25, 'id'],
      undefined,
      {},
      {
        sort: 'relevance',
      },
    );
    expect(body.sort).toEqual([{ _score: 'desc' }, { placeId: 'asc' }]);
    expect(body.search_after).toEqual([1.25, 'id']);
    expect(body.query).toMatchObject({
      function_score: {
        functions: [{ gauss: { location: { origin: near, scale: '2000m', offset: '0m', decay: 0.5 } } }],
        boost_mode: 'multiply',
      },
    });
    expect(body.preference).toMatch(/^search-/);
    // A name cursor does not fit a relevance search.
    expect(() =>
      buildSearchRequest(
        { country: 'de', q: 'praxis' },
        5,
        ['name', 'id'],
        undefined,
        {},
        { sort: 'relevance' },
      ),
    ).toThrow(/cursor sort values/);
  });

  it('never sends a preference Elasticsearch reserves (one starting with _)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (q) => {
        const body = buildSearchRequest(
          { country: 'de', q },
          5,
          undefined,
          undefined,
          {},
          { sort: 'relevance' },
        );
        return body.preference === undefined || !body.preference.startsWith('_');
      }),
    );
  });

  it('counts up to the bound only when asked', () => {
    expect(buildSearchRequest({ country: 'de' }, 5).track_total_hits).toBe(false);
    expect(
      buildSearchRequest({ country: 'de' }, 5, undefined, undefined, {}, { count: true }).track_total_hits,
    ).toBe(10_000);
  });
});

describe('sort orders and cursors', () => {
  it('defaults to name, or distance with near, and binds only an order that is not the default', () => {
    const near = { lat: 1, lon: 2 };
    expect(defaultSortOrder({ country: 'de' })).toBe('name');
    expect(defaultSortOrder({ country: 'de', near })).toBe('distance');
    expect(sortOrderOf({ country: 'de' }, 'relevance')).toBe('relevance');
    expect(boundSortOrder({ country: 'de' }, 'name')).toBeUndefined();
    expect(boundSortOrder({ country: 'de', near }, 'name')).toBe('name');
    expect(boundSortOrder({ country: 'de' }, undefined)).toBeUndefined();
  });

  it('refuses a cursor under another order than the one it was issued for', () => {
    const filters = { country: 'de' as const, q: 'praxis' };
    const cursor = encodeCursor({ after: [2.5, 'id'], filters, sort: 'relevance' }, SECRET);
    expect(decodeCursor(cursor, filters, SECRET, 'relevance')).toEqual({ ok: true, value: [2.5, 'id'] });
    expect(decodeCursor(cursor, filters, SECRET).ok).toBe(false);
    // A default order named explicitly issues the bytes of leaving it out.
    const plain = encodeCursor({ after: ['a', 'id'], filters }, SECRET);
    expect(decodeCursor(plain, filters, SECRET, boundSortOrder(filters, 'name'))).toEqual({
      ok: true,
      value: ['a', 'id'],
    });
  });

  it('shows distanceMeters with near under any order, and the total when counted', () => {
    const state = servedState();
    const doctor = toDoctor(state, { siteOrigin: SITE_ORIGIN });
    if (doctor.location === null) throw new Error('fixture without a location');
    const near = { lat: doctor.location.latitude + 0.009, lon: doctor.location.longitude };
    const hit: SearchHit = {
      _source: { doctor, sortName: 'x', placeId: state.placeId },
      sort: [0.75, state.placeId],
    };
    const page = toDoctorPage(
      [hit],
      5,
      { country: 'de', near },
      SECRET,
      {},
      { sort: 'relevance' },
      {
        value: 10_000,
        relation: 'gte',
      },
    );
    expect(page.doctors[0]?.distanceMeters).toBe(
      Math.round(arcDistanceMeters(near, { lat: doctor.location.latitude, lon: doctor.location.longitude })),
    );
    expect(page.doctors[0]?.distanceMeters).toBeGreaterThan(990);
    expect(page.page).toEqual({
      count: 1,
      hasMore: false,
      nextCursor: null,
      total: 10_000,
      totalExact: false,
    });
  });
});

describe('bbox', () => {
  it('parses the four edges, across the antimeridian too', () => {
    expect(parseBbox('13.3,52.4,13.5,52.6')).toEqual({
      ok: true,
      value: { west: 13.3, south: 52.4, east: 13.5, north: 52.6 },
    });
    expect(parseBbox(' 177 , -19 , -178 , -16 ')).toEqual({
      ok: true,
      value: { west: 177, south: -19, east: -178, north: -16 },
    });
  });

  it('refuses anything else with a reason', () => {
    for (const text of [
      '',
      '1,2,3',
      '1,2,3,4,5',
      '1e2,0,2,1',
      'a,b,c,d',
      '0,0,0,1',
      '0,1,1,1',
      '0,2,1,1',
      '-181,0,1,1',
      '0,-91,1,1',
    ]) {
      const parsed = parseBbox(text);
      expect(parsed.ok, text).toBe(false);
    }
  });

  it('becomes a bounding-box filter, and is a 1.3 parameter in the unknown-parameter list', () => {
    const body = buildSearchRequest(
      { country: 'de', bbox: { west: 177, south: -19, east: -178, north: -16 } },
      5,
    );
    expect(filteredQueryOf(body).bool.filter).toContainEqual({
      geo_bounding_box: {
        location: { top_left: { lat: -16, lon: 177 }, bottom_right: { lat: -19, lon: -178 } },
      },
    });
    const reasonOf = (raw: Record<string, string>) => {
      const parsed = parseSearchParams(raw);
      return parsed.ok ? '' : (parsed.error.find((error) => error.parameter === 'nope')?.reason ?? '');
    };
    // A 1.1 request lists 1.1's parameters, a 1.2 one 1.2's too, a 1.3 one all.
    expect(reasonOf({ country: 'de', nope: '1' })).not.toMatch(/\b(near|bbox|sort)\b/);
    expect(reasonOf({ country: 'de', near: '1,2', nope: '1' })).toMatch(/near/);
    expect(reasonOf({ country: 'de', near: '1,2', nope: '1' })).not.toMatch(/\b(bbox|sort|count)\b/);
    expect(reasonOf({ country: 'de', sort: 'name', nope: '1' })).toMatch(/bbox.*sort, count/);
  });
});
