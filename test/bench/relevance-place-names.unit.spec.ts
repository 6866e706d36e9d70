import { describe, expect, it } from 'vitest';
import { placeNameQueries, placeNameRates } from '../../bench/relevance-place-names.js';

describe('place-name queries', () => {
  it("ask every other name of the largest cities of each live dataset, never the slug's own spelling", () => {
    const records = [
      ...Array.from({ length: 3 }, () => ({ country: 'de', citySlug: 'muenchen' })),
      { country: 'de', citySlug: 'nowhere-with-no-other-name' },
      { country: 'fr', citySlug: 'paris' },
    ];
    const queries = placeNameQueries(records);
    const texts = queries.map((query) => query.text);
    expect(texts).toEqual(expect.arrayContaining(['munich', 'monaco di baviera', 'munchen']));
    expect(texts).not.toContain('muenchen');
    expect(new Set(queries.map((query) => query.citySlug))).toEqual(new Set(['muenchen']));
    expect(queries.every((query) => query.slugs.includes('munich'))).toBe(true);
  });

  it('rate what suggest and q found, per dataset and over all', () => {
    const rates = placeNameRates([
      { country: 'de', suggestFound: true, searchFound: true },
      { country: 'de', suggestFound: false, searchFound: true },
      { country: 'es', suggestFound: true, searchFound: false },
    ]);
    expect(rates).toEqual([
      { country: 'de', queries: 2, suggest: 0.5, search: 1 },
      { country: 'es', queries: 1, suggest: 1, search: 0 },
      { country: 'all', queries: 3, suggest: 2 / 3, search: 2 / 3 },
    ]);
  });
});
