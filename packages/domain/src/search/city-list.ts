import { z } from 'zod';
import { COUNTRY_CODES_TEXT } from '../requests/country-codes-text.js';
import type { CountryCode } from '../events/events.js';
import {
  countryFromQuery,
  limitFromQuery,
  optionalText,
  parseParameters,
  type ParameterError,
} from '../requests/query-parameters.js';
import type { Result } from '../shared/result.js';
import { foldText } from '../shared/text.js';

/**
 * The cities list (`GET /api/v1/cities`): the city slugs that search's `city` accepts in one
 * dataset, each with a display name and how many served records it holds, so clients stop guessing
 * slugs. Built from the search index by a terms aggregation on `citySlug`; the display name is the
 * most common published address city (`cityName`) among the city's records.
 *
 * `q` narrows the list to cities whose slug or folded name starts with it (`san seb`, `San Sebastián`
 * and `san-seb` all find `san-sebastian`; `munc` finds München). Counts are always the city's whole
 * count: with `q`, a first request finds the matching slugs, a second counts them (`buildCityCountsRequest`).
 * Order: most records first, then slug.
 */

export const CITIES_LIMIT_MAX = 500;
export const CITIES_DEFAULT_LIMIT = 50;
export const CITIES_Q_MAX_LENGTH = 100;

export type CitiesParams = { country: CountryCode; q?: string; limit: number };

export type CityEntry = { slug: string; name: string | null; count: number };
export type CitiesPage = { cities: CityEntry[] };

/** The query string of `GET /api/v1/cities`. Use `parseCitiesParams` for the full rules. */
export const citiesParamsSchema = z.object({
  country: countryFromQuery.describe(
    `Dataset code, case-insensitive: ${COUNTRY_CODES_TEXT.accepted} (as in search). ${COUNTRY_CODES_TEXT.empty} list no cities.`,
  ),
  q: optionalText(CITIES_Q_MAX_LENGTH).describe(
    'Prefix of the city name or slug, case- and accent-insensitive (e.g. "san seb", "munc"). Blank means every city.',
  ),
  limit: limitFromQuery(
    { max: CITIES_LIMIT_MAX, default: CITIES_DEFAULT_LIMIT },
    `Cities to return, 1 to ${CITIES_LIMIT_MAX}; the ones with most records come first.`,
  ),
});

/** Validates a parsed query string: the rules of every operation (unknown, repeated, keys in the URL). */
export function parseCitiesParams(raw: Record<string, unknown>): Result<CitiesParams, ParameterError[]> {
  return parseParameters(citiesParamsSchema, raw, 'query');
}

type Filter =
  | { term: Record<string, string | boolean> }
  | { terms: Record<string, string[]> }
  | { bool: { should: Array<{ prefix: Record<string, string> }>; minimum_should_match: 1 } };

type TermsAggregation = {
  terms: { field: string; size: number; order: [{ _count: 'desc' }, { _key: 'asc' }] };
};

export type CitiesRequestBody = {
  size: 0;
  query: { bool: { filter: Filter[] } };
  aggs: { cities: TermsAggregation & { aggs: { names: TermsAggregation } } };
  track_total_hits: false;
};

/** The part of an aggregation response the list reads. */
export type CitiesAggregation = {
  cities?: {
    buckets: ReadonlyArray<{
      key: unknown;
      doc_count: number;
      names?: { buckets: ReadonlyArray<{ key: unknown }> };
    }>;
  };
};

/** The cities of a dataset, narrowed by `q`, in list order. */
export function buildCitiesRequest(params: CitiesParams): CitiesRequestBody {
  const filter = datasetFilter(params.country);
  if (params.q !== undefined) {
    const key = foldText(params.q);
    const slug = slugPrefixOf(key);
    const should: Array<{ prefix: Record<string, string> }> = [{ prefix: { cityKey: key } }];
    if (slug !== '') should.push({ prefix: { citySlug: slug } });
    filter.push({ bool: { should, minimum_should_match: 1 } });
  }
  return citiesAggregation(filter, params.limit);
}

/** The whole counts and names of the given city slugs (the second step of a list with `q`). */
export function buildCityCountsRequest(
  country: CountryCode,
  slugs: ReadonlyArray<string>,
): CitiesRequestBody {
  const filter = datasetFilter(country);
  filter.push({ terms: { citySlug: [...slugs] } });
  return citiesAggregation(filter, Math.max(slugs.length, 1));
}

export function toCitiesPage(aggregations: CitiesAggregation | undefined): CitiesPage {
  const buckets = aggregations?.cities?.buckets ?? [];
  return {
    cities: buckets.map((bucket) => {
      const name = bucket.names?.buckets[0]?.key;
      return {
        slug: String(bucket.key),
        name: typeof name === 'string' ? name : null,
        count: bucket.doc_count,
      };
    }),
  };
}

// Served records of the dataset only: tombstones stay in the index (see search-query.ts).
export function datasetFilter(country: CountryCode): Filter[] {
  return [{ term: { served: true } }, { term: { country } }];
}

function citiesAggregation(filter: Filter[], size: number): CitiesRequestBody {
  return {
    size: 0,
    query: { bool: { filter } },
    aggs: { cities: cityBuckets(size) },
    track_total_hits: false,
  };
}

/** The `size` city slugs with most records, most first, each with its display name. */
export function cityBuckets(size: number): CitiesRequestBody['aggs']['cities'] {
  const order: [{ _count: 'desc' }, { _key: 'asc' }] = [{ _count: 'desc' }, { _key: 'asc' }];
  return {
    terms: { field: 'citySlug', size, order },
    // The most common published spelling of the city's name.
    aggs: { names: { terms: { field: 'cityName', size: 1, order } } },
  };
}

/** Folded text as the start of a slug: runs of anything but a-z and 0-9 become one hyphen. */
export function slugPrefixOf(folded: string): string {
  return folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+/, '');
}
