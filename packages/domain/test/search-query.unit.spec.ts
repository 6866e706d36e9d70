import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES } from '../src/events/events.js';
import { decodeCursor } from '../src/search/cursor.js';
import type { SearchFilters } from '../src/search/search-filters.js';
import {
  filteredQueryOf,
  buildGetByProfileQuery,
  buildSearchRequest,
  toDoctorPage,
  type SearchHit,
} from '../src/search/search-query.js';
import { foldText } from '../src/shared/text.js';
import { toDoctor, type Doctor } from '../src/places/doctor.js';
import { servedState, SITE_ORIGIN } from './fixtures.js';

const SECRET = 'test-cursor-secret-0123456789abcdef';
const SERVED = { term: { served: true } };

const filtersArbitrary: fc.Arbitrary<SearchFilters> = fc.record(
  {
    country: fc.constantFrom(...COUNTRY_CODES),
    city: fc.stringMatching(/^[a-z0-9]{1,8}(?:-[a-z0-9]{1,8})?$/),
    q: fc.string({ maxLength: 100 }),
    whatsapp: fc.boolean(),
    verified: fc.boolean(),
  },
  { requiredKeys: ['country'] },
);

describe('buildSearchRequest', () => {
  it('filters on served and country only, when no other filter is given', () => {
    expect(buildSearchRequest({ country: 'de' }, 25)).toEqual({
      size: 26,
      query: { bool: { filter: [SERVED, { term: { country: 'de' } }] } },
      sort: [{ sortName: 'asc' }, { placeId: 'asc' }],
      _source: ['doctor', 'sortName', 'placeId'],
      track_total_hits: false,
    });
  });

  it('maps every filter to its document field', () => {
    const body = buildSearchRequest(
      { country: 'es', city: 'san-sebastian', whatsapp: false, verified: true, q: 'Clínica DENTAL' },
      10,
      ['clinica dental', 'p-9'],
    );
    expect(body.size).toBe(11);
    expect(filteredQueryOf(body).bool.filter).toEqual([
      SERVED,
      { term: { country: 'es' } },
      // San Sebastián has other names (place-names.ts): the city filter takes every slug of the city.
      { terms: { citySlug: ['san-sebastian', 'donostia', 'donostia-san-sebastian', 'saint-sebastien'] } },
      { term: { whatsappEligible: false } },
      { term: { verified: true } },
    ]);
    expect(filteredQueryOf(body).bool.must).toEqual([
      { match_bool_prefix: { searchText: { query: 'clinica dental', operator: 'and' } } },
    ]);
    expect(body.search_after).toEqual(['clinica dental', 'p-9']);
  });

  it('always excludes tombstones and never interprets q as query syntax', () => {
    const syntax = fc.constantFrom(
      '*',
      '"',
      'OR',
      'AND',
      'NOT',
      'field:value',
      'name:*',
      '(',
      ')',
      '~2',
      '^3',
      '\\',
      '/re/',
      '-',
      '+',
      '&&',
      '||',
      '{',
      '}',
      '[',
      ']',
      '?',
      '!',
    );
    const qArbitrary = fc.oneof(
      fc.string({ maxLength: 100 }),
      fc
        .array(fc.oneof(syntax, fc.string({ maxLength: 10 })), { maxLength: 12 })
        .map((parts) => parts.join(' ')),
    );
    fc.assert(
      fc.property(filtersArbitrary, qArbitrary, fc.integer({ min: 1, max: 100 }), (filters, q, limit) => {
        const body = buildSearchRequest({ ...filters, q }, limit);
        const json = JSON.stringify(body);
        expect(json).not.toMatch(/query_string|simple_query_string/);
        expect(filteredQueryOf(body).bool.filter[0]).toEqual(SERVED);
        expect(filteredQueryOf(body).bool.must).toEqual([
          { match_bool_prefix: { searchText: { query: foldText(q), operator: 'and' } } },
        ]);
        // Nothing else can carry q: the bool holds only term filters and the one text clause.
        expect(Object.keys(filteredQueryOf(body).bool).sort()).toEqual(['filter', 'must']);
        expect(
          filteredQueryOf(body).bool.filter.every((clause) => Object.keys(clause).join() === 'term'),
        ).toBe(true);
      }),
    );
  });

  it('has no text clause without q', () => {
    fc.assert(
      fc.property(filtersArbitrary, (filters) => {
        const { q: _q, ...withoutQ } = filters;
        expect(filteredQueryOf(buildSearchRequest(withoutQ, 5)).bool.must).toBeUndefined();
      }),
    );
  });

  it('refuses a page size that validation should have stopped', () => {
    expect(() => buildSearchRequest({ country: 'de' }, 0)).toThrow();
    expect(() => buildSearchRequest({ country: 'de' }, 2.5)).toThrow();
  });
});

describe('internal filters (set by the FHIR directory, not by any /api/v1 parameter)', () => {
  it('add a word match of the name, a literal substring of the display name, an updatedAt upper bound and an OR of specialties', () => {
    const body = buildSearchRequest(
      {
        country: 'es',
        updatedSince: '2026-09-01T00:00:00Z',
        internal: {
          nameWords: 'Clínica  DEN',
          nameContains: 'a*b?c\\d',
          updatedBefore: { instant: '2026-10-01T02:00:00+02:00', inclusive: false },
          specialtyAny: ['pediatrics', 'dentistry', 'pediatrics'],
        },
      },
      10,
    );
    expect(filteredQueryOf(body).bool.filter).toEqual([
      SERVED,
      { term: { country: 'es' } },
      { range: { updatedAt: { gte: '2026-09-01T00:00:00.000Z' } } },
      { match_bool_prefix: { nameText: { query: 'clinica den', operator: 'and' } } },
      { wildcard: { sortName: { value: '*a\\*b\\?c\\\\d*' } } },
      { range: { updatedAt: { lt: '2026-10-01T00:00:00.000Z' } } },
      { terms: { specialtyCodes: ['dentistry', 'pediatrics'] } },
    ]);
    const inclusive = buildSearchRequest(
      { country: 'es', internal: { updatedBefore: { instant: '2026-10-01T00:00:00Z', inclusive: true } } },
      10,
    );
    expect(filteredQueryOf(inclusive).bool.filter).toContainEqual({
      range: { updatedAt: { lte: '2026-10-01T00:00:00.000Z' } },
    });
  });

  it('add an exact name (the NFC text, with or without the legal name) and a prefix of the postal code key', () => {
    // "é" typed decomposed is the same name; case and accents still count.
    const either = buildSearchRequest(
      {
        country: 'es',
        internal: { nameExact: { text: 'Cli\u0301nica Sol', orLegalName: true }, postalCodePrefix: ' 28-0 ' },
      },
      10,
    );
    expect(filteredQueryOf(either).bool.filter).toEqual([
      SERVED,
      { term: { country: 'es' } },
      {
        bool: {
          should: [{ term: { nameExact: 'Clínica Sol' } }, { term: { legalNameExact: 'Clínica Sol' } }],
          minimum_should_match: 1,
        },
      },
      { prefix: { postalCode: { value: '280' } } },
    ]);
    const nameOnly = buildSearchRequest(
      { country: 'es', internal: { nameExact: { text: 'Clínica Sol', orLegalName: false } } },
      10,
    );
    expect(filteredQueryOf(nameOnly).bool.filter).toContainEqual({ term: { nameExact: 'Clínica Sol' } });
    // The cursor binds the exact text: another case is another search.
    const template = toDoctor(servedState(), { siteOrigin: SITE_ORIGIN });
    const hits: SearchHit[] = ['pl_a', 'pl_b'].map((id) => ({
      _source: { doctor: { ...template, id }, sortName: id, placeId: id },
    }));
    const exact = { text: 'Praxis', orLegalName: true };
    const cursor =
      toDoctorPage(hits, 1, { country: 'de', internal: { nameExact: exact } }, SECRET).page.nextCursor ?? '';
    expect(decodeCursor(cursor, { country: 'de', internal: { nameExact: exact } }, SECRET).ok).toBe(true);
    expect(
      decodeCursor(cursor, { country: 'de', internal: { nameExact: { ...exact, text: 'praxis' } } }, SECRET)
        .ok,
    ).toBe(false);
  });

  it('leave the request of a search without them as it was, and bind its cursors', () => {
    expect(buildSearchRequest({ country: 'de', internal: {} }, 5)).toEqual(
      buildSearchRequest({ country: 'de' }, 5),
    );
    const template = toDoctor(servedState(), { siteOrigin: SITE_ORIGIN });
    const hits: SearchHit[] = ['pl_a', 'pl_b'].map((id) => ({
      _source: { doctor: { ...template, id }, sortName: id, placeId: id },
    }));
    const page = toDoctorPage(hits, 1, { country: 'de', internal: { nameWords: 'praxis' } }, SECRET);
    const cursor = page.page.nextCursor ?? '';
    expect(decodeCursor(cursor, { country: 'de', internal: { nameWords: 'Praxis' } }, SECRET).ok).toBe(true);
    expect(decodeCursor(cursor, { country: 'de' }, SECRET).ok).toBe(false);
    expect(decodeCursor(cursor, { country: 'de', internal: { nameContains: 'praxis' } }, SECRET).ok).toBe(
      false,
    );
  });
});

describe('buildGetByProfileQuery', () => {
  it('looks up one served record by country, city and profile slug', () => {
    expect(buildGetByProfileQuery({ country: 'it', citySlug: 'roma', profileSlug: 'studio-rossi' })).toEqual({
      size: 1,
      query: {
        bool: {
          filter: [
            SERVED,
            { term: { country: 'it' } },
            { term: { citySlug: 'roma' } },
            { term: { profileSlug: 'studio-rossi' } },
          ],
        },
      },
      sort: [{ placeId: 'asc' }],
      _source: ['doctor'],
      track_total_hits: false,
    });
  });
});

describe('toDoctorPage', () => {
  const template = toDoctor(servedState(), { siteOrigin: SITE_ORIGIN });
  const doctor = (id: string): Doctor => ({ ...template, id });
  const hits = (count: number): SearchHit[] =>
    Array.from({ length: count }, (_, index) => ({
      _source: { doctor: doctor(`p${index}`), sortName: `name ${index}`, placeId: `p${index}` },
    }));
  const filters: SearchFilters = { country: 'pt', q: 'dentista' };

  it('has no next page when fewer than limit + 1 hits came back', () => {
    for (const count of [0, 1, 3]) {
      expect(toDoctorPage(hits(count), 3, filters, SECRET)).toEqual({
        doctors: hits(count).map((hit) => hit._source?.doctor),
        page: { count, hasMore: false, nextCursor: null },
      });
    }
  });

  it('drops the extra hit and points the cursor after the last record returned', () => {
    const page = toDoctorPage(hits(4), 3, filters, SECRET);
    expect(page.doctors).toEqual([doctor('p0'), doctor('p1'), doctor('p2')]);
    expect(page.page.count).toBe(3);
    expect(page.page.hasMore).toBe(true);
    expect(page.page.nextCursor).toEqual(expect.any(String));
    expect(decodeCursor(page.page.nextCursor ?? '', filters, SECRET)).toEqual({
      ok: true,
      value: ['name 2', 'p2'],
    });
    // The cursor is bound to the filters of the page.
    expect(decodeCursor(page.page.nextCursor ?? '', { country: 'pt' }, SECRET).ok).toBe(false);
  });

  it('holds for any hit count and limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.nat({ max: 101 }), (limit, available) => {
        const count = Math.min(available, limit + 1);
        const page = toDoctorPage(hits(count), limit, filters, SECRET);
        expect(page.page.count).toBe(Math.min(count, limit));
        expect(page.doctors).toHaveLength(page.page.count);
        expect(page.page.hasMore).toBe(count > limit);
        expect(page.page.nextCursor === null).toBe(count <= limit);
      }),
    );
  });

  it('treats a hit without _source as a broken invariant', () => {
    expect(() => toDoctorPage([{}], 5, filters, SECRET)).toThrow(/_source/);
  });
});
