import { describe, expect, it } from 'vitest';
import {
  buildSpecialtyCountsRequest,
  parseSpecialtiesParams,
  parseSpecialtiesToolInput,
  specialtyVocabularyPage,
  toSpecialtyCountsPage,
} from '../src/search/specialty-list.js';
import { SPECIALTY_CODES } from '../src/places/specialty-vocabulary.js';

describe('parseSpecialtiesParams', () => {
  it('takes an optional country (any case) and a page language, default en', () => {
    expect(parseSpecialtiesParams({})).toEqual({ ok: true, value: { lang: 'en' } });
    expect(parseSpecialtiesParams({ country: 'DE', lang: 'pt' })).toEqual({
      ok: true,
      value: { country: 'de', lang: 'pt' },
    });
  });

  it('reports every bad parameter at once, with the rules of every operation', () => {
    expect(parseSpecialtiesParams({ q: 'x', key: 'x', country: 'xx', lang: ['de', 'en'] })).toEqual({
      ok: false,
      error: [
        {
          parameter: 'q',
          reason: 'is not a known parameter (known: country, lang; names are case-sensitive)',
        },
        { parameter: 'key', reason: expect.stringMatching(/never be sent in the URL/) as unknown },
        { parameter: 'lang', reason: 'must be given once' },
        { parameter: 'country', reason: 'must be one of de, es, fr, gb, it, mx, pt' },
      ],
    });
    expect(parseSpecialtiesParams({ lang: 'EN' })).toEqual({ ok: true, value: { lang: 'en' } });
    expect(parseSpecialtiesParams({ lang: 'english' })).toEqual({
      ok: false,
      error: [{ parameter: 'lang', reason: 'must be one of en, de, es, fr, it, pt' }],
    });
  });

  it('reads tool arguments with the same rules, null meaning absent', () => {
    expect(parseSpecialtiesToolInput({ country: 'ES', lang: null })).toEqual({
      ok: true,
      value: { country: 'es', lang: 'en' },
    });
    expect(parseSpecialtiesToolInput({ lang: 7 })).toEqual({
      ok: false,
      error: [{ parameter: 'lang', reason: 'must be one of en, de, es, fr, it, pt' }],
    });
    expect(parseSpecialtiesToolInput([])).toEqual({
      ok: false,
      error: [{ parameter: 'arguments', reason: 'must be an object' }],
    });
  });
});

describe('the specialties list', () => {
  it('is the whole vocabulary in code order without a country', () => {
    const page = specialtyVocabularyPage('it');
    expect(page.specialties.map((entry) => entry.code)).toEqual(SPECIALTY_CODES);
    expect(page.specialties).toContainEqual({ code: 'ophthalmology', label: 'Oculistica' });
  });

  it('counts the served records of a dataset per vocabulary code in one aggregation, most first', () => {
    expect(buildSpecialtyCountsRequest('de')).toEqual({
      size: 0,
      query: { bool: { filter: [{ term: { served: true } }, { term: { country: 'de' } }] } },
      aggs: {
        specialties: {
          terms: {
            field: 'specialtyCodes',
            size: SPECIALTY_CODES.length,
            include: SPECIALTY_CODES,
            order: [{ _count: 'desc' }, { _key: 'asc' }],
          },
        },
      },
      track_total_hits: false,
    });
  });

  it('labels the buckets in the language asked, drops codes the vocabulary no longer has', () => {
    const aggregations = {
      specialties: {
        buckets: [
          { key: 'dentistry', doc_count: 9 },
          { key: 'retired-code', doc_count: 4 },
          { key: 'pediatrics', doc_count: 2 },
        ],
      },
    };
    expect(toSpecialtyCountsPage('es', aggregations)).toEqual({
      specialties: [
        { code: 'dentistry', label: 'Odontología', count: 9 },
        { code: 'pediatrics', label: 'Pediatría', count: 2 },
      ],
    });
    // No index behind the alias yet: nothing is published.
    expect(toSpecialtyCountsPage('en', undefined)).toEqual({ specialties: [] });
  });
});
