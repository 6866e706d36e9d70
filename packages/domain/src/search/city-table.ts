import type { CountryCode } from '../events/events.js';
import { compareCodePoints, foldText } from '../shared/text.js';
import { datasetFilter, slugPrefixOf } from './city-list.js';
import { citySlugsTyped, type CitySuggestion } from './suggest.js';
import { splitWords } from './search-analysis.js';

/**
 * A dataset's city table: every published spelling of every city slug among its served records, with
 * the records that carry it. The typeahead matches typed text against it in memory instead of asking
 * Elasticsearch to aggregate the matching records at every keystroke: that aggregation visits every
 * record whose city matches, so its cost grew with the dataset (a one-letter keystroke matches a good
 * part of a country), while the table is one request per dataset that the hot-query cache keeps, and a
 * keystroke then costs a pass over the dataset's spellings (a few thousand, not millions of records).
 *
 * Read page by page (a composite aggregation on slug and spelling): a dataset may hold more cities than
 * one page, and the table must be whole for the counts to be right.
 */

/** Spellings per page of the table. */
export const CITY_TABLE_PAGE_SIZE = 5_000;

/** One row: a city slug, one spelling of its name (null for records without one), and its records. */
export type CitySpelling = { slug: string; name: string | null; count: number };

type CompositeAfter = { slug: string; name: string | null };

export type CityTableRequestBody = {
  size: 0;
  query: { bool: { filter: ReturnType<typeof datasetFilter> } };
  aggs: {
    spellings: {
      composite: {
        size: number;
        sources: [
          { slug: { terms: { field: 'citySlug' } } },
          { name: { terms: { field: 'cityName'; missing_bucket: true } } },
        ];
        after?: CompositeAfter;
      };
    };
  };
  track_total_hits: false;
};

/** The part of a page's answer the table reads. */
export type CityTableAggregation = {
  spellings?: {
    after_key?: Record<string, unknown>;
    buckets: ReadonlyArray<{ key: Record<string, unknown>; doc_count: number }>;
  };
};

/** One page of the table: the first when `after` is undefined, else the page after that key. */
export function buildCityTableRequest(country: CountryCode, after?: CompositeAfter): CityTableRequestBody {
  return {
    size: 0,
    query: { bool: { filter: datasetFilter(country) } },
    aggs: {
      spellings: {
        composite: {
          size: CITY_TABLE_PAGE_SIZE,
          sources: [
            { slug: { terms: { field: 'citySlug' } } },
            { name: { terms: { field: 'cityName', missing_bucket: true } } },
          ],
          ...(after === undefined ? {} : { after }),
        },
      },
    },
    track_total_hits: false,
  };
}

/** A page's rows, and the key of the next page (undefined after the last one). */
export function cityTablePage(aggregations: CityTableAggregation | undefined): {
  rows: CitySpelling[];
  next: CompositeAfter | undefined;
} {
  const buckets = aggregations?.spellings?.buckets ?? [];
  const rows = buckets.flatMap(({ key, doc_count: count }): CitySpelling[] =>
    typeof key.slug === 'string'
      ? [{ slug: key.slug, name: typeof key.name === 'string' ? key.name : null, count }]
      : [],
  );
  const after = aggregations?.spellings?.after_key;
  // A short page is the last one (Elasticsearch still names its last key).
  const next =
    buckets.length < CITY_TABLE_PAGE_SIZE || after === undefined || typeof after.slug !== 'string'
      ? undefined
      : { slug: after.slug, name: typeof after.name === 'string' ? after.name : null };
  return { rows, next };
}

/** A row with its name folded once, so a keystroke compares folded text only. */
export type PreparedSpelling = CitySpelling & { key: string | null };

export function prepareCitySpellings(rows: ReadonlyArray<CitySpelling>): PreparedSpelling[] {
  return rows.map((row) => ({ ...row, key: row.name === null ? null : foldText(row.name) }));
}

/**
 * The cities the typed text matches, as the typeahead lists them: a slug matches when a word of a
 * spelling's folded name starts with the typed text (only that spelling's records count), or when the
 * slug starts with it or the city has another name that the typed text matches (all its records count).
 * Most matching records first, then slug; the name is the most common matching spelling (then the
 * first in code-point order), the slug when none has a name.
 */
export function matchCities(
  country: CountryCode,
  q: string,
  limit: number,
  spellings: ReadonlyArray<PreparedSpelling>,
): CitySuggestion[] {
  const folded = foldText(q);
  const slugPrefix = slugPrefixOf(folded);
  const slugsByOtherName = new Set(citySlugsTyped(country, splitWords(folded)));
  const cities = new Map<string, { count: number; names: Map<string, number> }>();
  for (const { slug, name, key, count } of spellings) {
    const matches =
      (key !== null && hasWordStartingWith(key, folded)) ||
      (slugPrefix !== '' && slug.startsWith(slugPrefix)) ||
      slugsByOtherName.has(slug);
    if (!matches) continue;
    const city = cities.get(slug) ?? { count: 0, names: new Map<string, number>() };
    city.count += count;
    if (name !== null) city.names.set(name, (city.names.get(name) ?? 0) + count);
    cities.set(slug, city);
  }
  return [...cities]
    .sort(([slugA, a], [slugB, b]) => b.count - a.count || compareCodePoints(slugA, slugB))
    .slice(0, limit)
    .map(([citySlug, { names }]) => ({ type: 'city', citySlug, name: mostCommonName(names) ?? citySlug }));
}

/**
 * Whether `text` occurs in `key` at its start or right after a character other than a-z and 0-9 (a word
 * start of folded text: "bad nauheim" has one at "nauheim").
 */
export function hasWordStartingWith(key: string, text: string): boolean {
  for (let index = key.indexOf(text); index !== -1; index = key.indexOf(text, index + 1)) {
    if (index === 0 || !isAsciiLetterOrDigit(key.charCodeAt(index - 1))) return true;
  }
  return false;
}

function isAsciiLetterOrDigit(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
}

function mostCommonName(names: ReadonlyMap<string, number>): string | undefined {
  let best: [string, number] | undefined;
  for (const entry of names) {
    if (
      best === undefined ||
      entry[1] > best[1] ||
      (entry[1] === best[1] && compareCodePoints(entry[0], best[0]) < 0)
    )
      best = entry;
  }
  return best?.[0];
}
