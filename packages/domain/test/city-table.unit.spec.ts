import { describe, expect, it } from 'vitest';
import {
  CITY_TABLE_PAGE_SIZE,
  buildCityTableRequest,
  cityTablePage,
  hasWordStartingWith,
  matchCities,
  prepareCitySpellings,
  type CitySpelling,
} from '../src/search/city-table.js';
import { compareCodePoints } from '../src/shared/text.js';

const city = (citySlug: string, name: string) => ({ type: 'city', citySlug, name });

describe('the city table request', () => {
  it('reads every slug and spelling of the served records of one dataset, page after page', () => {
    const first = buildCityTableRequest('de');
    expect(first).toEqual({
      size: 0,
      query: { bool: { filter: [{ term: { served: true } }, { term: { country: 'de' } }] } },
      aggs: {
        spellings: {
          composite: {
            size: CITY_TABLE_PAGE_SIZE,
            sources: [
              { slug: { terms: { field: 'citySlug' } } },
              { name: { terms: { field: 'cityName', missing_bucket: true } } },
            ],
          },
        },
      },
      track_total_hits: false,
    });
    expect(
      buildCityTableRequest('de', { slug: 'berlin', name: null }).aggs.spellings.composite.after,
    ).toEqual({
      slug: 'berlin',
      name: null,
    });
  });

  it('reads a page into rows and the key of the next page; a short page is the last', () => {
    const buckets = [
      { key: { slug: 'berlin', name: 'Berlin' }, doc_count: 4 },
      { key: { slug: 'berlin', name: null }, doc_count: 1 },
    ];
    expect(cityTablePage({ spellings: { after_key: { slug: 'berlin', name: null }, buckets } })).toEqual({
      rows: [
        { slug: 'berlin', name: 'Berlin', count: 4 },
        { slug: 'berlin', name: null, count: 1 },
      ],
      next: undefined,
    });
    const full = Array.from({ length: CITY_TABLE_PAGE_SIZE }, (_, index) => ({
      key: { slug: `c${index}`, name: 'X' },
      doc_count: 1,
    }));
    expect(
      cityTablePage({ spellings: { after_key: { slug: 'c9', name: 'X' }, buckets: full } }).next,
    ).toEqual({
      slug: 'c9',
      name: 'X',
    });
    expect(cityTablePage(undefined)).toEqual({ rows: [], next: undefined });
  });
});

describe('matchCities', () => {
  const table = prepareCitySpellings([
    { slug: 'bad-nauheim', name: 'Bad Nauheim', count: 2 },
    { slug: 'berlin', name: 'Berlin', count: 5 },
    { slug: 'berlin', name: 'BERLIN', count: 7 },
    { slug: 'berlin', name: 'Charlottenburg', count: 20 },
    { slug: 'berlin', name: 'Berlin-Mitte', count: 1 },
    { slug: 'mitterteich', name: 'Mitterteich', count: 2 },
    { slug: 'berlin', name: null, count: 3 },
    { slug: 'bernau', name: 'Bernau', count: 12 },
    { slug: 'muellheim', name: 'Müllheim', count: 1 },
    { slug: 'nauen', name: null, count: 4 },
  ]);

  it('counts the records of the matching spellings, most first; the name is the most common one', () => {
    // "ber" starts the slug: all 36 of Berlin's records count, Charlottenburg its most common spelling.
    expect(matchCities('de', 'BER', 8, table)).toEqual([
      city('berlin', 'Charlottenburg'),
      city('bernau', 'Bernau'),
    ]);
    expect(matchCities('de', 'ber', 1, table)).toEqual([city('berlin', 'Charlottenburg')]);
    // "mitte" matches one spelling of Berlin (1 record), not its slug: Mitterteich's 2 come first.
    expect(matchCities('de', 'Mitte', 8, table)).toEqual([
      city('mitterteich', 'Mitterteich'),
      city('berlin', 'Berlin-Mitte'),
    ]);
    expect(matchCities('de', 'mül', 8, table)).toEqual([city('muellheim', 'Müllheim')]);
  });

  it('matches a later word of the name, the slug (every record then), never inside a word', () => {
    expect(matchCities('de', 'nauh', 8, table)).toEqual([city('bad-nauheim', 'Bad Nauheim')]);
    // "nau" starts a word of Bad Nauheim and the slug nauen (nameless: the slug is its name).
    expect(matchCities('de', 'nau', 8, table)).toEqual([
      city('nauen', 'nauen'),
      city('bad-nauheim', 'Bad Nauheim'),
    ]);
    expect(matchCities('de', 'bad-n', 8, table)).toEqual([city('bad-nauheim', 'Bad Nauheim')]);
    expect(matchCities('de', 'erlin', 8, table)).toEqual([]);
    // The slug matches: all of Berlin's records count, its most common spelling names it.
    expect(
      matchCities(
        'de',
        'berl',
        8,
        prepareCitySpellings([{ slug: 'berlin', name: 'Charlottenburg', count: 2 }]),
      ),
    ).toEqual([city('berlin', 'Charlottenburg')]);
    expect(matchCities('de', '!!!', 8, table)).toEqual([]);
  });

  it('orders equal counts by slug and equal spellings by code point', () => {
    const even = prepareCitySpellings([
      { slug: 'bb', name: 'Bb', count: 1 },
      { slug: 'ba', name: 'Ba', count: 1 },
      { slug: 'ba', name: 'BA', count: 1 },
    ]);
    expect(matchCities('de', 'b', 8, even)).toEqual([city('ba', 'BA'), city('bb', 'Bb')]);
  });

  it('agrees with counting record by record, whatever the table', () => {
    const slugs = ['a', 'ab', 'b-a', 'ba'];
    const names = [null, 'A', 'Ab', 'B A', 'Ba', 'Äb', 'x-ab'];
    // Every record of a small dataset, built from a seed so a failure can be replayed.
    for (let seed = 1; seed <= 200; seed += 1) {
      let state = seed;
      const next = (bound: number) => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return state % bound;
      };
      const records = Array.from({ length: 1 + next(12) }, () => ({
        slug: slugs[next(slugs.length)] as string,
        name: names[next(names.length)] ?? null,
      }));
      const rows = new Map<string, CitySpelling>();
      for (const record of records) {
        const key = `${record.slug}|${String(record.name)}`;
        const row = rows.get(key) ?? { ...record, count: 0 };
        row.count += 1;
        rows.set(key, row);
      }
      for (const q of ['a', 'ab', 'b', 'b a', 'b-']) {
        expect(
          matchCities('de', q, 8, prepareCitySpellings([...rows.values()])),
          `seed ${seed}, q ${q}`,
        ).toEqual(countedOneByOne(records, q));
      }
    }
  });
});

/** The rule as the index applied it: every matching record counted, names by record. */
function countedOneByOne(records: ReadonlyArray<{ slug: string; name: string | null }>, q: string) {
  const folded = q.toLowerCase();
  const slugPrefix = folded.replace(/[^a-z0-9]+/g, '-');
  const cities = new Map<string, { count: number; names: Map<string, number> }>();
  for (const { slug, name } of records) {
    const key = name?.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    const wordStart = key !== undefined && new RegExp(`(^|[^a-z0-9])${folded}`).test(key);
    if (!wordStart && !slug.startsWith(slugPrefix)) continue;
    const city = cities.get(slug) ?? { count: 0, names: new Map<string, number>() };
    city.count += 1;
    if (name !== null) city.names.set(name, (city.names.get(name) ?? 0) + 1);
    cities.set(slug, city);
  }
  return [...cities]
    .sort(([slugA, a], [slugB, b]) => b.count - a.count || compareCodePoints(slugA, slugB))
    .slice(0, 8)
    .map(([slug, { names }]) => {
      const best = [...names].sort(([a, x], [b, y]) => y - x || compareCodePoints(a, b))[0];
      return city(slug, best?.[0] ?? slug);
    });
}

describe('hasWordStartingWith', () => {
  it('finds the text at the start or after anything but a-z and 0-9', () => {
    expect(hasWordStartingWith('bad nauheim', 'nau')).toBe(true);
    expect(hasWordStartingWith('bad nauheim', 'bad n')).toBe(true);
    expect(hasWordStartingWith('halle (saale)', 'saa')).toBe(true);
    expect(hasWordStartingWith('nauheim-nauheim', 'auheim')).toBe(false);
    expect(hasWordStartingWith('xnau nau', 'nau')).toBe(true);
    expect(hasWordStartingWith('2nau', 'nau')).toBe(false);
  });
});

describe('compareCodePoints', () => {
  it('orders by code point, as keyword terms are ordered, not by UTF-16 unit', () => {
    expect(compareCodePoints('a', 'b')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('', '')).toBe(0);
    // U+FF5E (one unit) comes before U+1F600 (two units starting 0xD83D), unlike in UTF-16 order.
    expect(compareCodePoints('\uff5e', '\u{1F600}')).toBeLessThan(0);
    expect('\uff5e' < '\u{1F600}').toBe(false);
  });
});
