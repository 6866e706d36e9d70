import { z } from 'zod';
import { COUNTRY_CODES_TEXT } from '../requests/country-codes-text.js';
import type { CountryCode } from '../events/events.js';
import type { PageLanguage } from '../places/profile-url.js';
import {
  countryFromQuery,
  langWithDefault,
  limitFromQuery,
  optionalText,
  parseParameters,
  type ParameterError,
} from '../requests/query-parameters.js';
import { fail, ok, type Result } from '../shared/result.js';
import { foldText } from '../shared/text.js';
import { PAGE_LANGUAGE_CODES } from '../places/profile-url.js';
import { datasetFilter, type CitiesPage } from './city-list.js';
import { openAtClause } from './open-at.js';
import {
  FACET_LIMIT_DEFAULT,
  FACET_LIMIT_MAX,
  FACET_NAMES,
  facetValue,
  facetValueSchema,
  matchesPrefix,
  openNowValues,
  valuesAggregation,
  type FacetName,
  type FacetValue,
  type FacetsResponse,
} from './facets.js';

/**
 * The facet-value search (`GET /api/v1/facets/{name}`): the values of one facet in a whole dataset
 * whose value or label starts with `q` (both folded: case, accents and spacing do not matter), each with
 * how many records `?<name>=<value>` finds there, most records first, then value. For lists too long for
 * a search's `facetLimit`, such as cities.
 *
 * `city` is the cities list (city-list.ts) under another name: its values are unbounded, so the index
 * finds the matching ones. Every other facet has a short closed list (a vocabulary, or true and false):
 * one aggregation counts all of it and `q` is matched here, against the labels in `lang`. `openNow`
 * counts the records open at the request time (its one value, `true`).
 */

export const FACET_VALUES_Q_MAX_LENGTH = 100;
const DEFAULT_LANGUAGE: PageLanguage = 'en';
/** Above every closed list's length (the vocabularies hold tens of codes): one request counts them all. */
const CLOSED_LIST_SIZE = 1_000;

export type FacetValuesParams = {
  name: FacetName;
  country: CountryCode;
  q?: string;
  limit: number;
  lang: PageLanguage;
};
export type FacetValuesPage = { values: FacetValue[] };

export const FACET_NAME_REASON = `must be a facet name: ${FACET_NAMES.join(', ')}`;

/** The query string of `GET /api/v1/facets/{name}`. Use `parseFacetValuesParams` for the full rules. */
export const facetValuesParamsSchema = z.object({
  country: countryFromQuery.describe(
    `Dataset code, case-insensitive: ${COUNTRY_CODES_TEXT.accepted} (as in search). ${COUNTRY_CODES_TEXT.empty} have no values.`,
  ),
  q: optionalText(FACET_VALUES_Q_MAX_LENGTH).describe(
    'Prefix of the value or its label, case- and accent-insensitive (e.g. "san seb", "zahn"). Blank means every value.',
  ),
  limit: limitFromQuery(
    { max: FACET_LIMIT_MAX, default: FACET_LIMIT_DEFAULT },
    `Values to return, 1 to ${FACET_LIMIT_MAX}; the ones with most records come first.`,
  ),
  lang: langWithDefault(DEFAULT_LANGUAGE).describe(
    `Page language of the specialty labels: ${PAGE_LANGUAGE_CODES.join(', ')} (case-insensitive); default ${DEFAULT_LANGUAGE}.`,
  ),
});

export const facetNameSchema = z.enum(FACET_NAMES).meta({ description: 'The facet whose values to list' });

/** Validates the path's facet name and the query string; every bad parameter is reported at once. */
export function parseFacetValuesParams(
  name: string,
  raw: Record<string, unknown>,
): Result<FacetValuesParams, ParameterError[]> {
  const facet = facetNameSchema.safeParse(name);
  const parsed = parseParameters(facetValuesParamsSchema, raw, 'query');
  const errors = [
    ...(facet.success ? [] : [{ parameter: 'name', reason: FACET_NAME_REASON }]),
    ...(parsed.ok ? [] : parsed.error),
  ];
  if (!facet.success || !parsed.ok) return fail(errors);
  const { country, q, limit, lang } = parsed.value;
  return ok({ name: facet.data, country, limit, lang, ...(q === undefined ? {} : { q }) });
}

export type FacetValuesRequestBody = {
  size: 0;
  query: { bool: { filter: ReturnType<typeof datasetFilter> } };
  aggs: { facets: { global: Record<string, never>; aggs: { [name: string]: object } } };
  track_total_hits: false;
};

/**
 * Every value of a closed-list facet in the dataset, counted (not for `city`: see above). Shaped like a
 * search's facets (one global aggregation), so one reading serves both. `requestTime` is the instant
 * `openNow` counts at.
 */
export function buildFacetValuesRequest(
  params: FacetValuesParams,
  requestTime: Date,
): FacetValuesRequestBody {
  const { name, country } = params;
  if (name === 'city') throw new Error('the city facet is searched through the cities list');
  const filter = datasetFilter(country);
  const facet =
    name === 'openNow'
      ? { filter: { bool: { filter: [...filter, openAtClause(country, requestTime)] } } }
      : {
          filter: { bool: { filter } },
          aggs: { values: valuesAggregation(name, country, CLOSED_LIST_SIZE) },
        };
  return {
    size: 0,
    query: { bool: { filter } },
    aggs: { facets: { global: {}, aggs: { [name]: facet } } },
    track_total_hits: false,
  };
}

/** The values of a closed-list facet that match `q`, the first `limit` of them. */
export function toFacetValuesPage(
  params: FacetValuesParams,
  aggregations: FacetsResponse | undefined,
): FacetValuesPage {
  const { name, country, lang } = params;
  const facet = aggregations?.facets?.[name];
  const values =
    name === 'openNow'
      ? openNowValues(facet?.doc_count ?? 0)
      : (facet?.values?.buckets ?? []).map((bucket) => facetValue(name, country, lang, bucket));
  const folded = params.q === undefined ? undefined : foldText(params.q);
  const matching = folded === undefined ? values : values.filter((value) => matchesPrefix(value, folded));
  return { values: matching.slice(0, params.limit) };
}

/** The cities list as the city facet's values: slug, count and display name as the label. */
export function cityFacetValues(page: CitiesPage): FacetValuesPage {
  return {
    values: page.cities.map(({ slug, name, count }) =>
      name === null ? { value: slug, count } : { value: slug, count, label: name },
    ),
  };
}

export const facetValuesPageSchema = z
  .looseObject({ values: z.array(facetValueSchema).max(FACET_LIMIT_MAX) })
  .meta({
    id: 'FacetValueList',
    description: 'Values of one facet in a dataset, matching `q`, most records first, then value',
  });
