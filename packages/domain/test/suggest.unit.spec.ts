import { describe, expect, it } from 'vitest';
import {
  SUGGEST_DEFAULT_LIMIT,
  buildSuggestDoctorsRequests,
  matchesAtWordStart,
  matchingSpecialtyCodes,
  mergeSuggestions,
  parseSuggestParams,
  toSuggestPage,
  type SuggestParams,
} from '../src/search/suggest.js';
import { splitWords } from '../src/search/search-analysis.js';
import { INDEX_SORT } from '../src/search/search-document.js';

const params = (q: string, more: Partial<SuggestParams> = {}): SuggestParams => ({
  country: 'de',
  q,
  limit: SUGGEST_DEFAULT_LIMIT,
  lang: 'en',
  ...more,
});

describe('parseSuggestParams', () => {
  it('takes country (any case), a trimmed q, a limit and a lang (any case)', () => {
    expect(parseSuggestParams({ country: 'DE', q: '  Mül ' })).toEqual({
      ok: true,
      value: { country: 'de', q: 'Mül', limit: SUGGEST_DEFAULT_LIMIT, lang: 'en' },
    });
    expect(parseSuggestParams({ country: 'es', q: 'ü'.repeat(100), limit: '20', lang: 'ES' })).toEqual({
      ok: true,
      value: { country: 'es', q: 'ü'.repeat(100), limit: 20, lang: 'es' },
    });
  });

  it('reports every bad parameter at once, with the rules of every operation', () => {
    expect(
      parseSuggestParams({ q: 'ü'.repeat(101), limit: '21', lang: 'xx', city: 'berlin', apiKey: 'x' }),
    ).toEqual({
      ok: false,
      error: [
        {
          parameter: 'city',
          reason: 'is not a known parameter (known: country, q, limit, lang; names are case-sensitive)',
        },
        { parameter: 'apiKey', reason: expect.stringMatching(/never be sent in the URL/) as unknown },
        { parameter: 'country', reason: 'is required; must be one of de, es, fr, gb, it, mx, pt' },
        { parameter: 'q', reason: 'must be at most 100 characters' },
        { parameter: 'limit', reason: 'must be an integer from 1 to 20' },
        { parameter: 'lang', reason: 'must be one of en, de, es, fr, it, pt' },
      ],
    });
    for (const q of [undefined, '', '   ']) {
      expect(parseSuggestParams({ country: 'de', q })).toEqual({
        ok: false,
        error: [{ parameter: 'q', reason: 'is required: 1 to 100 characters' }],
      });
    }
    expect(parseSuggestParams({ country: 'de', q: 'mu', limit: '0' }).ok).toBe(false);
    expect(parseSuggestParams({ country: 'de', q: ['a', 'b'] })).toEqual({
      ok: false,
      error: [{ parameter: 'q', reason: 'must be given once' }],
    });
  });
});

describe('word-start matching', () => {
  it('splits folded text into runs of letters and digits', () => {
    expect(splitWords('dr. müller-lüdenscheidt  42')).toEqual(['dr', 'müller', 'lüdenscheidt', '42']);
    expect(splitWords('!!!')).toEqual([]);
  });

  it('needs earlier typed words whole and in order, the last one a prefix', () => {
    const words = ['medicina', 'general', 'e', 'familiar'];
    expect(matchesAtWordStart(words, ['medicina', 'ge'])).toBe(true);
    expect(matchesAtWordStart(words, ['gen'])).toBe(true);
    expect(matchesAtWordStart(words, ['e', 'fam'])).toBe(true);
    expect(matchesAtWordStart(words, ['medic', 'general'])).toBe(false);
    expect(matchesAtWordStart(words, ['general', 'medicina'])).toBe(false);
    expect(matchesAtWordStart(words, ['eneral'])).toBe(false);
    expect(matchesAtWordStart(words, [])).toBe(false);
  });

  it('finds specialty codes by any label or synonym in any language, case- and accent-insensitively', () => {
    expect(matchingSpecialtyCodes('ZAHN')).toContain('dentistry');
    expect(matchingSpecialtyCodes('pediatr')).toContain('pediatrics');
    expect(matchingSpecialtyCodes('Pädiat')).toEqual(matchingSpecialtyCodes('padiat'));
    expect(matchingSpecialtyCodes('medicina ge')).toContain('general-practice');
    expect(matchingSpecialtyCodes('ge medicina')).toEqual([]);
    expect(matchingSpecialtyCodes('!!!')).toEqual([]);
    const codes = matchingSpecialtyCodes('c');
    expect(codes).toEqual([...codes].sort());
  });
});

describe('the requests', () => {
  const dataset = [{ term: { served: true } }, { term: { country: 'de' } }];

  it('asks for doctors as search q does, folded, in the index order: names starting with the text, then the rest', () => {
    const { starting, others } = buildSuggestDoctorsRequests(params('  Dr. MÜL', { limit: 5 }));
    const match = { match_bool_prefix: { searchText: { query: 'dr. mul', operator: 'and' } } };
    const startsWithText = { prefix: { 'sortName.starts': 'dr. mul' } };
    const common = {
      size: 5,
      sort: [{ sortName: 'asc' }, { placeId: 'asc' }],
      _source: ['placeId', 'doctor.name', 'doctor.legalName', 'doctor.address.city'],
      track_total_hits: false,
    };
    expect(starting).toEqual({ ...common, query: { bool: { filter: [...dataset, match, startsWithText] } } });
    expect(others).toEqual({
      ...common,
      query: { bool: { filter: [...dataset, match], must_not: [startsWithText] } },
    });
    // Sorted exactly as the index keeps its records, or Elasticsearch cannot stop early.
    expect(starting.sort.map((key) => Object.keys(key)[0])).toEqual(INDEX_SORT.field);
    expect(starting.sort.map((key) => Object.values(key)[0])).toEqual(INDEX_SORT.order);
  });
});

const specialty = (code: string) => ({ type: 'specialty' as const, code, label: code });
const city = (citySlug: string) => ({ type: 'city' as const, citySlug, name: citySlug });
const doctor = (id: string) => ({ type: 'doctor' as const, id, name: id, city: null });
const many = <T>(count: number, make: (name: string) => T) =>
  Array.from({ length: count }, (_, index) => make(String(index)));

describe('mergeSuggestions', () => {
  it('gives specialties and cities a quarter of limit each (at least one), doctors the rest', () => {
    const merged = mergeSuggestions(8, many(5, specialty), many(5, city), many(10, doctor));
    expect(merged.map((suggestion) => suggestion.type)).toEqual([
      'specialty',
      'specialty',
      'city',
      'city',
      'doctor',
      'doctor',
      'doctor',
      'doctor',
    ]);
    expect(mergeSuggestions(1, many(2, specialty), many(2, city), many(2, doctor))).toEqual([specialty('0')]);
    expect(mergeSuggestions(2, [], many(2, city), many(2, doctor))).toEqual([city('0'), doctor('0')]);
  });

  it('fills what doctors leave with more specialties, then more cities', () => {
    expect(mergeSuggestions(8, many(3, specialty), many(5, city), many(1, doctor))).toEqual([
      ...many(3, specialty),
      ...many(4, city),
      doctor('0'),
    ]);
    expect(mergeSuggestions(8, [], [], many(3, doctor))).toEqual(many(3, doctor));
    expect(mergeSuggestions(3, [], many(5, city), [])).toEqual(many(3, city));
  });
});

describe('toSuggestPage', () => {
  it('shapes hits (names starting with the text first), city buckets and counted codes into allowlisted suggestions, in answer order', () => {
    const page = toSuggestPage(
      params('zahn', { lang: 'de' }),
      {
        doctorHits: {
          starting: [
            {
              _source: {
                placeId: 'z1',
                doctor: { name: 'Zahnarztpraxis Müller', legalName: 'X GmbH', address: { city: 'München' } },
              },
            },
            {
              _source: {
                placeId: 'z2',
                doctor: { name: null, legalName: 'Zahn GmbH', address: { city: null } },
              },
            },
            // No name at all: nothing to show.
            { _source: { placeId: 'z3', doctor: { name: null, legalName: null } } },
          ],
          others: [{ _source: { placeId: 'z4', doctor: { name: 'Praxis Zahn', address: { city: null } } } }],
        },
        cities: [
          { citySlug: 'zahna', name: 'Zahna', count: 2 },
          { citySlug: 'zahnstadt', name: 'zahnstadt', count: 1 },
        ],
      },
      [
        { code: 'orthodontics', count: 1 },
        { code: 'dentistry', count: 1 },
        { code: 'not-a-code', count: 9 },
      ],
    );
    expect(page).toEqual({
      suggestions: [
        { type: 'specialty', code: 'dentistry', label: 'Zahnmedizin' },
        { type: 'specialty', code: 'orthodontics', label: expect.any(String) as unknown },
        { type: 'city', citySlug: 'zahna', name: 'Zahna' },
        { type: 'city', citySlug: 'zahnstadt', name: 'zahnstadt' },
        { type: 'doctor', id: 'z1', name: 'Zahnarztpraxis Müller', city: 'München' },
        { type: 'doctor', id: 'z2', name: 'Zahn GmbH', city: null },
        { type: 'doctor', id: 'z4', name: 'Praxis Zahn', city: null },
      ],
    });
  });

  it('suggests nothing when no index answers', () => {
    expect(toSuggestPage(params('mu'), undefined, [])).toEqual({ suggestions: [] });
  });
});
