import type { CountryCode } from '../events/events.js';
import { foldText } from '../shared/text.js';
import { datasetFilter, slugPrefixOf } from './city-list.js';

/**
 * The typeahead's cities, matched in memory (suggest.ts). A dataset has few distinct city spellings
 * (thousands) but many records (hundreds of thousands): counting the records of the matching cities in
 * Elasticsearch at every keystroke cost in proportion to the records matched, so the cost of a keystroke
 * grew with the dataset. Instead, the dataset's spellings are read once, each with its number of served
 * records (`buildCitySpellingsRequest`, a composite aggregation), and every keystroke is answered from
 * that table: its matching spellings found by binary search, their counts summed per slug.
 *
 * The answer is exactly what the terms aggregation over the matching records gave for the same index:
 * a spelling matches when a word of its folded name starts with the typed text, or its slug starts with
 * it, or its city has another name the typed text matches (place-names.ts); a city counts the records of
 * its matching spellings; its name is its most common matching spelling; most records first, then slug.
 * How fresh the table is, the caller decides (packages/search, city-tables.ts).
 */

/** One spelling of a city in the dataset: the records with this slug and this published city name. */
export type CitySpelling = { slug: string; name: string | null; count: number };

export type CityTable = {
  readonly spellings: ReadonlyArray<CitySpelling>;
  /** Every word start of every folded name (the rest of the name from there), sorted, with its spelling. */
  readonly wordStarts: ReadonlyArray<string>;
  readonly wordStartSpelling: Int32Array;
  /** The distinct slugs, sorted, each with the indexes of its spellings. */
  readonly slugs: ReadonlyArray<string>;
  readonly slugSpellings: ReadonlyArray<ReadonlyArray<number>>;
};

export type CityMatch = { citySlug: string; name: string; count: number };

/** Spellings per page of the composite aggregation: most datasets fit in one. */
export const CITY_SPELLINGS_PAGE_SIZE = 10_000;

type CompositeKey = { slug: string; name: string | null };

export type CitySpellingsRequestBody = {
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
        after?: CompositeKey;
      };
    };
  };
  track_total_hits: false;
};

/** The part of the composite aggregation's answer the table reads. */
export type CitySpellingsAggregation = {
  spellings?: {
    after_key?: unknown;
    buckets: ReadonlyArray<{ key: { slug?: unknown; name?: unknown }; doc_count: number }>;
  };
};

/** One page of the dataset's (slug, published name) pairs with their served records; `after` continues. */
export function buildCitySpellingsRequest(
  country: CountryCode,
  after?: CompositeKey,
): CitySpellingsRequestBody {
  return {
    size: 0,
    query: { bool: { filter: datasetFilter(country) } },
    aggs: {
      spellings: {
        composite: {
          size: CITY_SPELLINGS_PAGE_SIZE,
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

/** A page's spellings, and the key to ask the next page from (undefined: it was the last). */
export function citySpellingsPage(aggregations: CitySpellingsAggregation | undefined): {
  spellings: CitySpelling[];
  after: CompositeKey | undefined;
} {
  const buckets = aggregations?.spellings?.buckets ?? [];
  const spellings = buckets.flatMap(({ key, doc_count }): CitySpelling[] =>
    typeof key.slug === 'string'
      ? [{ slug: key.slug, name: typeof key.name === 'string' ? key.name : null, count: doc_count }]
      : [],
  );
  const last = spellings.at(-1);
  // A short page is the last one (Elasticsearch may still send an after_key with it).
  const after =
    last === undefined || buckets.length < CITY_SPELLINGS_PAGE_SIZE
      ? undefined
      : { slug: last.slug, name: last.name };
  return { spellings, after };
}

export function cityTableOf(spellings: ReadonlyArray<CitySpelling>): CityTable {
  const starts: Array<{ text: string; spelling: number }> = [];
  const bySlug = new Map<string, number[]>();
  spellings.forEach((spelling, index) => {
    const indexes = bySlug.get(spelling.slug);
    if (indexes === undefined) bySlug.set(spelling.slug, [index]);
    else indexes.push(index);
    if (spelling.name === null) return;
    const key = foldText(spelling.name);
    for (const start of wordStartsOf(key)) starts.push({ text: key.slice(start), spelling: index });
  });
  starts.sort((a, b) => compareCodeUnits(a.text, b.text));
  const slugs = [...bySlug.keys()].sort(compareCodeUnits);
  return {
    spellings,
    wordStarts: starts.map(({ text }) => text),
    wordStartSpelling: Int32Array.from(starts, ({ spelling }) => spelling),
    slugs,
    slugSpellings: slugs.map((slug) => bySlug.get(slug) as number[]),
  };
}

/**
 * The cities the typed text (`folded`, as `foldText` gives it) finds, at most `limit`, most matching
 * records first, then slug. `otherNameSlugs`: the slugs whose city has another name the typed words match
 * (`citySlugsTyped`).
 */
export function matchCities(
  table: CityTable,
  folded: string,
  otherNameSlugs: ReadonlyArray<string>,
  limit: number,
): CityMatch[] {
  const matched = new Set<number>();
  for (let at = lowerBound(table.wordStarts, folded); at < table.wordStarts.length; at += 1) {
    if (!(table.wordStarts[at] as string).startsWith(folded)) break;
    matched.add(table.wordStartSpelling[at] as number);
  }
  const addSlug = (position: number) => {
    for (const index of table.slugSpellings[position] ?? []) matched.add(index);
  };
  const slugPrefix = slugPrefixOf(folded);
  if (slugPrefix !== '') {
    for (let at = lowerBound(table.slugs, slugPrefix); at < table.slugs.length; at += 1) {
      if (!(table.slugs[at] as string).startsWith(slugPrefix)) break;
      addSlug(at);
    }
  }
  for (const slug of otherNameSlugs) {
    const at = lowerBound(table.slugs, slug);
    if (table.slugs[at] === slug) addSlug(at);
  }
  const cities = new Map<string, { count: number; best: CitySpelling | null }>();
  for (const index of matched) {
    const spelling = table.spellings[index] as CitySpelling;
    const city = cities.get(spelling.slug) ?? { count: 0, best: null };
    city.count += spelling.count;
    if (spelling.name !== null && (city.best === null || isMoreCommon(spelling, city.best)))
      city.best = spelling;
    cities.set(spelling.slug, city);
  }
  return [...cities]
    .map(([citySlug, { count, best }]) => ({ citySlug, name: best?.name ?? citySlug, count }))
    .sort((a, b) => b.count - a.count || compareCodeUnits(a.citySlug, b.citySlug))
    .slice(0, limit);
}

/**
 * Where the words of a folded name start: its first character and every character after one that is
 * not a-z or 0-9 (as the word-start regexp on `cityKey` had it).
 */
export function wordStartsOf(key: string): number[] {
  // The start counts even for an empty name, which empty typed text (all marks, say) matches.
  const starts = [0];
  for (let at = 1; at < key.length; at += 1) {
    if (!isWordCharacter(key.charCodeAt(at - 1))) starts.push(at);
  }
  return starts;
}

function isWordCharacter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** Elasticsearch's order of names with equal counts: by their UTF-8 bytes. */
function isMoreCommon(candidate: CitySpelling, best: CitySpelling): boolean {
  if (candidate.count !== best.count) return candidate.count > best.count;
  return Buffer.compare(Buffer.from(candidate.name as string), Buffer.from(best.name as string)) < 0;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first position of `sorted` not before `text` (every string starting with `text` follows it). */
function lowerBound(sorted: ReadonlyArray<string>, text: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < text) low = middle + 1;
    else high = middle;
  }
  return low;
}
