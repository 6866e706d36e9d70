import { GEO_RADIUS_DEFAULT_M, GEO_RADIUS_MAX_M, arcDistanceMeters, type GeoPoint } from './geo.js';
import { citySlugsOf } from './place-names.js';
import { wordsOf } from './search-analysis.js';
import { SEARCH_FILTERS, type SearchFilters } from './search-filters.js';
import { SERVED, buildSearchRequest, type SearchOrder, type SearchRequestBody } from './search-query.js';
import type { SearchSuggestion } from './search-suggestion.js';

/**
 * What to try when a search finds nothing (docs/api.md, "Zero results"): with `suggestions=true`, an
 * empty first page carries up to three suggestions, each a change of one parameter that finds records,
 * with how many:
 *
 * - `query`: `q` with each word the index does not hold replaced by the closest one it does
 *   (Elasticsearch's term suggester over the literal search text), kept only if it finds records with
 *   every other parameter as asked;
 * - `radius`: with `near`, the smallest of SUGGESTION_RADII_M above the radius asked that finds records;
 * - `city`: with `city`, the nearest other city (centre to centre: the mean of its records' locations)
 *   among the CITY_CANDIDATES cities with the most records matching every other parameter.
 *
 * Cheap by construction: nothing is asked unless the page is empty and the first, and then at most four
 * requests, in two rounds: the term suggester, the radius rings and the cities at once, then one count of
 * the corrected query. This module builds the request bodies and reads their answers; the search package
 * sends them.
 */

/** The radii a `radius` suggestion may name, in metres; the largest is the most `radius` accepts. */
export const SUGGESTION_RADII_M = [2_000, 5_000, 10_000, 25_000, GEO_RADIUS_MAX_M] as const;
/** The cities a `city` suggestion is chosen from: those with the most matching records. */
export const CITY_CANDIDATES = 100;
/** The term suggester's bounds: words shorter than this are never corrected (as in relevance search). */
const SUGGEST_MIN_WORD_LENGTH = 4;

/** Whether a search's answer gets suggestions computed: asked for, the first page, and empty. */
export function needsSuggestions(
  request: { suggestions?: true | undefined; cursor?: string | undefined },
  recordsFound: number,
): boolean {
  return request.suggestions === true && request.cursor === undefined && recordsFound === 0;
}

/** A count of the records a search body selects: no hits, no sort, the exact total. */
export type CountRequestBody = Pick<SearchRequestBody, 'query' | 'preference'> & {
  size: 0;
  track_total_hits: true;
};

export function countRequestOf(body: SearchRequestBody): CountRequestBody {
  const count: CountRequestBody = { size: 0, query: body.query, track_total_hits: true };
  if (body.preference !== undefined) count.preference = body.preference;
  return count;
}

/** The search of `filters` with another value of one filter, as a count. */
export function buildSuggestionCountRequest(
  filters: SearchFilters,
  change: Partial<SearchFilters>,
  order: SearchOrder,
  requestTime: Date | undefined,
): CountRequestBody {
  return countRequestOf(buildSearchRequest({ ...filters, ...change }, 1, undefined, requestTime, {}, order));
}

// ---- query: the term suggester ----

export type TermSuggestRequestBody = {
  size: 0;
  query: { bool: { filter: [typeof SERVED] } };
  track_total_hits: false;
  suggest: {
    words: {
      text: string;
      term: {
        field: 'searchText';
        suggest_mode: 'missing';
        size: 1;
        max_edits: 2;
        prefix_length: 1;
        min_word_length: number;
      };
    };
  };
};

/** The term suggester over q's folded words; null when q has no word long enough to correct. */
export function buildTermSuggestRequest(q: string): TermSuggestRequestBody | null {
  const words = wordsOf(q);
  if (!words.some((word) => word.length >= SUGGEST_MIN_WORD_LENGTH)) return null;
  return {
    size: 0,
    query: { bool: { filter: [SERVED] } },
    track_total_hits: false,
    suggest: {
      words: {
        text: words.join(' '),
        term: {
          field: 'searchText',
          // Only words the index does not hold get options: a known word is never replaced.
          suggest_mode: 'missing',
          size: 1,
          max_edits: 2,
          prefix_length: 1,
          min_word_length: SUGGEST_MIN_WORD_LENGTH,
        },
      },
    },
  };
}

/** The term suggester's answer: per analyzed word, its best replacement (none: the word is known). */
export type TermSuggestResponse = {
  words?: ReadonlyArray<{ text: string; options: ReadonlyArray<{ text: string }> }>;
};

/** q's folded words with each unknown word replaced by its suggestion; null when nothing changed. */
export function correctedQuery(q: string, suggest: TermSuggestResponse | undefined): string | null {
  const replacements = new Map<string, string>();
  for (const entry of suggest?.words ?? []) {
    const best = entry.options[0]?.text;
    if (best !== undefined && best !== entry.text) replacements.set(entry.text, best);
  }
  if (replacements.size === 0) return null;
  return wordsOf(q)
    .map((word) => replacements.get(word) ?? word)
    .join(' ');
}

// ---- radius: rings around near ----

/** The radii above the one asked, smallest first (none when it is already the largest). */
export function widerRadii(filters: SearchFilters): number[] {
  const radius = filters.radius ?? GEO_RADIUS_DEFAULT_M;
  return SUGGESTION_RADII_M.filter((candidate) => candidate > radius);
}

export type RadiusRingsRequestBody = CountRequestBody & {
  aggs: {
    rings: {
      geo_distance: {
        field: 'location';
        origin: GeoPoint;
        unit: 'm';
        distance_type: 'arc';
        ranges: Array<{ key: string; to: number }>;
      };
    };
  };
};

/**
 * One request for every wider radius: the search at the largest, counted in rings from the point (each
 * ring from 0, so its count is what that radius finds). Null without `near` or a wider radius.
 */
export function buildRadiusRingsRequest(
  filters: SearchFilters,
  order: SearchOrder,
  requestTime: Date | undefined,
): RadiusRingsRequestBody | null {
  const radii = widerRadii(filters);
  const largest = radii[radii.length - 1];
  if (filters.near === undefined || largest === undefined) return null;
  return {
    ...buildSuggestionCountRequest(filters, { radius: largest }, order, requestTime),
    aggs: {
      rings: {
        geo_distance: {
          field: 'location',
          origin: filters.near,
          unit: 'm',
          distance_type: 'arc',
          ranges: radii.map((radius) => ({ key: String(radius), to: radius })),
        },
      },
    },
  };
}

export type RadiusRingsAggregation = {
  rings?: { buckets: ReadonlyArray<{ key: string; doc_count: number }> };
};

/** The smallest wider radius that finds records. */
export function radiusSuggestion(
  aggregations: RadiusRingsAggregation | undefined,
): Extract<SearchSuggestion, { kind: 'radius' }> | null {
  const rings = (aggregations?.rings?.buckets ?? [])
    .map((bucket) => ({ radius: Number(bucket.key), count: bucket.doc_count }))
    .filter((ring) => ring.count > 0)
    .sort((a, b) => a.radius - b.radius);
  const first = rings[0];
  return first === undefined ? null : { kind: 'radius', radius: first.radius, resultCount: first.count };
}

// ---- city: the nearest city with matches ----

type Centroid = { location?: { lat: number; lon: number } | undefined; count: number };

export type NearbyCitiesRequestBody = CountRequestBody & {
  aggs: {
    cities: {
      terms: { field: 'citySlug'; size: number };
      aggs: {
        centre: { geo_centroid: { field: 'location' } };
        name: { terms: { field: 'cityName'; size: 1 } };
      };
    };
    asked: {
      global: Record<string, never>;
      aggs: {
        city: {
          filter: { bool: { filter: object[] } };
          aggs: { centre: { geo_centroid: { field: 'location' } } };
        };
      };
    };
  };
};

/**
 * The search without its city, its records counted per city with each city's centre; and the asked
 * city's centre from all its records (whatever the other filters). Null without `city`.
 */
export function buildNearbyCitiesRequest(
  filters: SearchFilters,
  order: SearchOrder,
  requestTime: Date | undefined,
): NearbyCitiesRequestBody | null {
  if (filters.city === undefined) return null;
  const { city, ...others } = filters;
  const country = SEARCH_FILTERS.country.canonical(filters.country);
  return {
    ...countRequestOf(buildSearchRequest(others, 1, undefined, requestTime, {}, order)),
    aggs: {
      cities: {
        terms: { field: 'citySlug', size: CITY_CANDIDATES },
        aggs: {
          centre: { geo_centroid: { field: 'location' } },
          name: { terms: { field: 'cityName', size: 1 } },
        },
      },
      asked: {
        global: {},
        aggs: {
          city: {
            filter: {
              bool: {
                filter: [
                  SERVED,
                  { term: { country } },
                  { terms: { citySlug: [...citySlugsOf(country, city)] } },
                ],
              },
            },
            aggs: { centre: { geo_centroid: { field: 'location' } } },
          },
        },
      },
    },
  };
}

export type NearbyCitiesAggregation = {
  cities?: {
    buckets: ReadonlyArray<{
      key: string;
      doc_count: number;
      centre?: Centroid;
      name?: { buckets: ReadonlyArray<{ key: string }> };
    }>;
  };
  asked?: { city?: { centre?: Centroid } };
};

/**
 * The city nearest the asked one (centre to centre) among those with matches; none when the asked city
 * has no located record to measure from.
 */
export function citySuggestion(
  filters: SearchFilters,
  aggregations: NearbyCitiesAggregation | undefined,
): Extract<SearchSuggestion, { kind: 'city' }> | null {
  const from = aggregations?.asked?.city?.centre?.location;
  if (filters.city === undefined || from === undefined) return null;
  const country = SEARCH_FILTERS.country.canonical(filters.country);
  const asked = new Set(citySlugsOf(country, filters.city));
  let best: {
    bucket: NonNullable<NearbyCitiesAggregation['cities']>['buckets'][number];
    meters: number;
  } | null = null;
  for (const bucket of aggregations?.cities?.buckets ?? []) {
    const centre = bucket.centre?.location;
    if (asked.has(bucket.key) || centre === undefined || bucket.doc_count === 0) continue;
    const meters = arcDistanceMeters(from, centre);
    // Ties (the same centre) go to the city with more records, then the first slug: one answer.
    if (best === null || meters < best.meters) best = { bucket, meters };
  }
  if (best === null) return null;
  return {
    kind: 'city',
    city: best.bucket.key,
    name: best.bucket.name?.buckets[0]?.key ?? null,
    resultCount: best.bucket.doc_count,
  };
}
