import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SLUG_PATTERN, type CountryCode } from '../src/events/events.js';
import {
  citySlugsByWord,
  citySlugsOf,
  cityNameGroupsOf,
  nameSlug,
  umlautSpelling,
} from '../src/search/place-names.js';
import { buildSearchRequest, filteredQueryOf } from '../src/search/search-query.js';
import { relevanceTextQuery } from '../src/search/search-relevance.js';
import { wordsOf } from '../src/search/search-analysis.js';
import { citySlugsTyped, suggestCities, SUGGEST_DEFAULT_LIMIT } from '../src/search/suggest.js';
import { cityTableOf } from '../src/search/city-table.js';

const LIVE_COUNTRIES: ReadonlyArray<CountryCode> = ['de', 'es', 'it', 'pt'];

describe('the place names table', () => {
  it.each(LIVE_COUNTRIES)(
    '%s: every slug is a valid slug of one city only, every name one city only',
    (country) => {
      const groups = cityNameGroupsOf(country);
      expect(groups.length).toBeGreaterThan(0);
      const slugOwners = new Map<string, string>();
      const nameOwners = new Map<string, string>();
      for (const group of groups) {
        expect(group.slugs[0]).toBe(group.slug);
        for (const slug of group.slugs) {
          expect(slug).toMatch(SLUG_PATTERN);
          expect(slugOwners.get(slug) ?? group.slug, `slug ${slug}`).toBe(group.slug);
          slugOwners.set(slug, group.slug);
        }
        for (const name of group.names) {
          const key = name.join(' ');
          expect(nameOwners.get(key) ?? group.slug, `name ${key}`).toBe(group.slug);
          nameOwners.set(key, group.slug);
        }
      }
    },
  );

  it('has nothing for a dataset without live data', () => {
    expect(cityNameGroupsOf('gb')).toEqual([]);
    expect(citySlugsOf('gb', 'london')).toEqual(['london']);
  });
});

describe('citySlugsOf (the city filter)', () => {
  it.each([
    ['de', 'munich', 'muenchen'],
    ['de', 'monaco-di-baviera', 'muenchen'],
    ['de', 'munchen', 'muenchen'],
    ['de', 'cologne', 'koeln'],
    ['de', 'nuremberg', 'nuernberg'],
    ['de', 'brunswick', 'braunschweig'],
    ['es', 'seville', 'sevilla'],
    ['es', 'donostia', 'san-sebastian'],
    ['es', 'la-coruna', 'a-coruna'],
    ['es', 'saragossa', 'zaragoza'],
    ['it', 'rome', 'roma'],
    ['it', 'milan', 'milano'],
    ['it', 'neapel', 'napoli'],
    ['it', 'florence', 'firenze'],
    ['pt', 'lisbon', 'lisboa'],
    ['pt', 'oporto', 'porto'],
  ] as const)('%s: %s is a slug of %s, and the other way round', (country, alias, slug) => {
    expect(citySlugsOf(country, alias)).toContain(slug);
    expect(citySlugsOf(country, slug)).toContain(alias);
  });

  it('resolves per dataset: another country, or a slug without other names, is just itself', () => {
    expect(citySlugsOf('es', 'munich')).toEqual(['munich']);
    expect(citySlugsOf('de', 'rome')).toEqual(['rome']);
    expect(citySlugsOf('de', 'bochum')).toEqual(['bochum']);
  });

  it('sends a term for a plain slug and every slug of the city for a known one', () => {
    const filterOf = (country: CountryCode, city: string) =>
      filteredQueryOf(buildSearchRequest({ country, city }, 10)).bool.filter;
    expect(filterOf('de', 'bochum')).toContainEqual({ term: { citySlug: 'bochum' } });
    const munich = filterOf('de', 'munich');
    const cityFilter = munich.find((clause) => 'terms' in clause);
    expect(cityFilter).toEqual({ terms: { citySlug: [...citySlugsOf('de', 'muenchen')] } });
    expect(munich).not.toContainEqual({ term: { citySlug: 'munich' } });
  });
});

describe('citySlugsByWord (q under relevance)', () => {
  it('marks the words of a whole name with its city, in any language', () => {
    const slugs = citySlugsByWord('de', wordsOf('Zahnarzt Monaco di Baviera'));
    expect(slugs[0]).toEqual([]);
    for (const word of slugs.slice(1)) expect(word).toContain('muenchen');
    // Part of a name is no name.
    expect(citySlugsByWord('de', wordsOf('monaco di'))).toEqual([[], []]);
    expect(citySlugsByWord('es', wordsOf('dentista SEVILLE'))[1]).toContain('sevilla');
    expect(citySlugsByWord('es', wordsOf('dentista munich'))).toEqual([[], []]);
    // German without umlauts, in the de dataset only.
    expect(citySlugsByWord('de', wordsOf('Duesseldorf'))[0]).toContain('duesseldorf');
    expect(citySlugsByWord('it', wordsOf('Muenchen'))).toEqual([[]]);
  });

  it('adds the city to the word clause of the relevance query', () => {
    const query = relevanceTextQuery('dentist munich', 'de');
    const [dentist, munich] = query?.bool.must[0].bool.should ?? [];
    const cityClause = (queries: ReadonlyArray<object> | undefined) =>
      queries?.find((clause) => 'constant_score' in clause);
    expect(cityClause(dentist?.dis_max.queries)).toBeUndefined();
    expect(cityClause(munich?.dis_max.queries)).toEqual({
      constant_score: {
        filter: { terms: { citySlug: [...citySlugsOf('de', 'munich')] } },
        boost: 1.5,
      },
    });
  });

  it('a query of one name finds that name wherever it stands, whatever else surrounds it (property)', () => {
    const everyName = LIVE_COUNTRIES.flatMap((country) =>
      cityNameGroupsOf(country).flatMap((group) => group.names.map((name) => ({ country, group, name }))),
    );
    const filler = fc.array(fc.constantFrom('zahnarzt', 'dentist', 'dr', 'praxis', 'clinica'), {
      maxLength: 3,
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...everyName),
        filler,
        filler,
        ({ country, group, name }, before, after) => {
          const slugs = citySlugsByWord(country, [...before, ...name, ...after]);
          before.forEach((_, index) => expect(slugs[index]).toEqual([]));
          name.forEach((_, index) => expect(slugs[before.length + index]).toContain(group.slug));
          after.forEach((_, index) => expect(slugs[before.length + name.length + index]).toEqual([]));
        },
      ),
    );
  });
});

describe('citySlugsTyped (suggest)', () => {
  it('matches the typed text at a word start of another name, the last word a prefix', () => {
    expect(citySlugsTyped('de', ['munich'])).toContain('muenchen');
    expect(citySlugsTyped('de', ['muni'])).toContain('muenchen');
    expect(citySlugsTyped('de', ['monaco', 'di', 'bav'])).toContain('muenchen');
    expect(citySlugsTyped('it', ['naples'])).toContain('napoli');
    expect(citySlugsTyped('it', ['munich'])).toEqual([]);
    expect(citySlugsTyped('de', [])).toEqual([]);
  });

  it("suggests the city another name matches, counting all its spellings' records", () => {
    const table = cityTableOf([
      { slug: 'muenchen', name: 'München', count: 3 },
      { slug: 'muenchen', name: 'Muenchen', count: 1 },
      { slug: 'munster', name: 'Munster', count: 9 },
    ]);
    const suggest = (q: string) =>
      suggestCities(table, { country: 'de', q, limit: SUGGEST_DEFAULT_LIMIT, lang: 'en' });
    expect(suggest('Munich')).toEqual([{ citySlug: 'muenchen', name: 'München', count: 4 }]);
    expect(suggest('mun')).toEqual([
      { citySlug: 'munster', name: 'Munster', count: 9 },
      { citySlug: 'muenchen', name: 'München', count: 4 },
    ]);
  });
});

describe('nameSlug and umlautSpelling', () => {
  it('spells umlauts as German does without them', () => {
    expect(umlautSpelling('Mönchengladbach')).toBe('moenchengladbach');
    expect(umlautSpelling('Saarbrücken')).toBe('saarbruecken');
    expect(umlautSpelling('Bochum')).toBe('bochum');
  });

  it('folds a name into a slug', () => {
    expect(nameSlug('Monaco di Baviera')).toBe('monaco-di-baviera');
    expect(nameSlug("L'Hospitalet de Llobregat")).toBe('l-hospitalet-de-llobregat');
    expect(nameSlug('Halle (Saale)')).toBe('halle-saale');
  });
});
