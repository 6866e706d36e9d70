import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CITY_SPELLINGS_PAGE_SIZE,
  buildCitySpellingsRequest,
  citySpellingsPage,
  cityTableOf,
  matchCities,
  wordStartsOf,
  type CitySpelling,
  type CityMatch,
} from '../src/search/city-table.js';
import { slugPrefixOf } from '../src/search/city-list.js';
import { foldText } from '../src/shared/text.js';

/** The table's match for text as typed (the caller folds it). */
const match = (
  table: ReturnType<typeof cityTableOf>,
  q: string,
  others: ReadonlyArray<string>,
  limit: number,
) => matchCities(table, foldText(q), others, limit);

const spelling = (slug: string, name: string | null, count: number): CitySpelling => ({ slug, name, count });

describe('the city table', () => {
  const table = cityTableOf([
    spelling('bad-nauheim', 'Bad Nauheim', 4),
    spelling('bad-nauheim', 'Bad-Nauheim', 1),
    spelling('nauen', 'Nauen', 4),
    spelling('san-sebastian', 'San Sebastián', 2),
    spelling('san-sebastian', 'Donostia-San Sebastián', 5),
    spelling('st-ingbert', 'St. Ingbert', 3),
    spelling('unnamed', null, 7),
  ]);

  it('finds a word start of any spelling, counting only the matching spellings, most records first', () => {
    expect(match(table, 'nau', [], 8)).toEqual([
      { citySlug: 'bad-nauheim', name: 'Bad Nauheim', count: 5 },
      { citySlug: 'nauen', name: 'Nauen', count: 4 },
    ]);
    // Its slug starts with "bad-n" too: every spelling counts.
    expect(match(table, 'BAD N', [], 8)).toEqual([
      { citySlug: 'bad-nauheim', name: 'Bad Nauheim', count: 5 },
    ]);
    expect(match(table, 'heim', [], 8)).toEqual([]);
    // "Bad-Nauheim" has a word start after the hyphen, "St. Ingbert" after the dot and the space.
    expect(match(table, 'nauheim', [], 8)).toEqual([
      { citySlug: 'bad-nauheim', name: 'Bad Nauheim', count: 5 },
    ]);
    expect(match(table, 'ingb', [], 8)).toEqual([{ citySlug: 'st-ingbert', name: 'St. Ingbert', count: 3 }]);
    expect(match(table, 'auh', [], 8)).toEqual([]);
  });

  it('names a city by its most common matching spelling', () => {
    expect(match(table, 'sebas', [], 8)).toEqual([
      { citySlug: 'san-sebastian', name: 'Donostia-San Sebastián', count: 7 },
    ]);
    expect(match(table, 'san s', [], 8)).toEqual([
      { citySlug: 'san-sebastian', name: 'Donostia-San Sebastián', count: 7 },
    ]);
    expect(match(table, 'dono', [], 8)).toEqual([
      { citySlug: 'san-sebastian', name: 'Donostia-San Sebastián', count: 5 },
    ]);
  });

  it('finds a slug prefix with every spelling, and a city named by its slug when none publishes a name', () => {
    expect(match(table, 'san-seb', [], 8)).toEqual([
      { citySlug: 'san-sebastian', name: 'Donostia-San Sebastián', count: 7 },
    ]);
    expect(match(table, 'unna', [], 8)).toEqual([{ citySlug: 'unnamed', name: 'unnamed', count: 7 }]);
    expect(match(table, 'xyz', ['nauen', 'not-in-the-table'], 8)).toEqual([
      { citySlug: 'nauen', name: 'Nauen', count: 4 },
    ]);
  });

  it('keeps the first limit cities, ties by slug', () => {
    expect(match(table, 'n', [], 1)).toEqual([{ citySlug: 'bad-nauheim', name: 'Bad Nauheim', count: 5 }]);
    expect(match(table, 'n', [], 8).map(({ citySlug }) => citySlug)).toEqual(['bad-nauheim', 'nauen']);
    expect(match(cityTableOf([]), 'n', [], 8)).toEqual([]);
  });

  it('starts a word at the start and after anything but a-z and 0-9', () => {
    expect(wordStartsOf('bad nauheim')).toEqual([0, 4]);
    expect(wordStartsOf('st. ingbert')).toEqual([0, 3, 4]);
    expect(wordStartsOf('a1b-c')).toEqual([0, 4]);
    expect(wordStartsOf('')).toEqual([0]);
  });

  it('answers as the terms aggregation over the records a word-start regexp matched did (property)', () => {
    const slug = fc.constantFrom('a', 'ab', 'a-b', 'b', 'ba', 'b-a-c', 'ss');
    const name = fc.option(
      fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'é', 'ß', ' ', '-', '.', '1', '𝔸'), maxLength: 6 }),
    );
    const spellings = fc.uniqueArray(fc.record({ slug, name, count: fc.integer({ min: 1, max: 5 }) }), {
      selector: ({ slug: s, name: n }) => `${s}\u0000${n ?? '\u0001'}`,
      maxLength: 12,
    });
    const typed = fc.string({
      unit: fc.constantFrom('a', 'b', 'A', 'é', 's', ' ', '-', '.', '1', '𝔸'),
      minLength: 1,
      maxLength: 4,
    });
    const otherNameSlugs = fc.subarray(['a', 'ba', 'zz']);
    fc.assert(
      fc.property(
        spellings,
        typed,
        otherNameSlugs,
        fc.integer({ min: 1, max: 4 }),
        (rows, q, others, limit) => {
          expect(match(cityTableOf(rows), q, others, limit)).toEqual(reference(rows, q, others, limit));
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** The old Elasticsearch request, in JavaScript: a regexp over each folded name, a terms aggregation. */
function reference(
  rows: ReadonlyArray<CitySpelling>,
  q: string,
  otherNameSlugs: ReadonlyArray<string>,
  limit: number,
): CityMatch[] {
  const folded = foldText(q);
  const literal = [...folded].map((character) => `\\u{${character.codePointAt(0)?.toString(16)}}`).join('');
  const wordStart = new RegExp(`^(?:[\\s\\S]*[^a-z0-9])?${literal}[\\s\\S]*$`, 'u');
  const slugPrefix = slugPrefixOf(folded);
  const matching = rows.filter(
    (row) =>
      (row.name !== null && wordStart.test(foldText(row.name))) ||
      (slugPrefix !== '' && row.slug.startsWith(slugPrefix)) ||
      otherNameSlugs.includes(row.slug),
  );
  const slugs = [...new Set(matching.map((row) => row.slug))];
  return slugs
    .map((citySlug) => {
      const own = matching.filter((row) => row.slug === citySlug);
      const named = own
        .filter((row) => row.name !== null)
        .sort(
          (a, b) =>
            b.count - a.count || Buffer.compare(Buffer.from(a.name as string), Buffer.from(b.name as string)),
        );
      const count = own.reduce((sum, row) => sum + row.count, 0);
      return { citySlug, name: named[0]?.name ?? citySlug, count };
    })
    .sort((a, b) => b.count - a.count || (a.citySlug < b.citySlug ? -1 : 1))
    .slice(0, limit);
}

describe('the spellings request', () => {
  it("pages the dataset's served (slug, name) pairs, names missing included", () => {
    const first = buildCitySpellingsRequest('de');
    expect(first.query.bool.filter).toEqual([{ term: { served: true } }, { term: { country: 'de' } }]);
    expect(first.aggs.spellings.composite).toEqual({
      size: CITY_SPELLINGS_PAGE_SIZE,
      sources: [
        { slug: { terms: { field: 'citySlug' } } },
        { name: { terms: { field: 'cityName', missing_bucket: true } } },
      ],
    });
    expect(buildCitySpellingsRequest('de', { slug: 'a', name: null }).aggs.spellings.composite.after).toEqual(
      {
        slug: 'a',
        name: null,
      },
    );
  });

  it('reads a page and continues after its last key only when it was full', () => {
    const bucket = (slug: unknown, name: unknown, count: number) => ({
      key: { slug, name },
      doc_count: count,
    });
    expect(
      citySpellingsPage({
        spellings: { after_key: {}, buckets: [bucket('a', 'A', 2), bucket('b', null, 1)] },
      }),
    ).toEqual({ spellings: [spelling('a', 'A', 2), spelling('b', null, 1)], after: undefined });
    const full = Array.from({ length: CITY_SPELLINGS_PAGE_SIZE }, (_, index) => bucket(`s${index}`, 'N', 1));
    expect(citySpellingsPage({ spellings: { buckets: full } }).after).toEqual({
      slug: `s${CITY_SPELLINGS_PAGE_SIZE - 1}`,
      name: 'N',
    });
    expect(citySpellingsPage(undefined)).toEqual({ spellings: [], after: undefined });
  });
});
