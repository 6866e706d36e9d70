import { z } from 'zod';
import type { CountryCode } from '../events/events.js';
import { INSURANCE_SCHEMES, LANGUAGE_CODES, insuranceCodesOf } from '../events/patient-attributes.js';
import { SPECIALTY_CODES, specialtyLabel } from '../places/specialty-vocabulary.js';
import type { PageLanguage } from '../places/profile-url.js';
import { assertNever } from '../shared/assert-never.js';
import { foldText } from '../shared/text.js';
import { SEARCH_FILTERS, type FilterName } from './search-filters.js';
import type { SearchField } from './search-document.js';

/**
 * Facets (docs/api.md, "Facets"): beside a page of search results, how many records each value of a
 * filter would find. A facet is named after the filter it counts for, and each value is one that filter
 * takes, so `?<name>=<value>` narrows the search to exactly `count` records.
 *
 * Disjunctive: a facet's counts apply every filter of the search but its own (with `specialty=dentistry`
 * the specialty facet still counts every other specialty, while the city facet counts only dentists).
 * A facet whose filter the search sets is a `filter` aggregation inside one `global` aggregation: global
 * leaves the search's query behind, and the filter is that query's clauses minus the facet's own. Every
 * other facet counts under the query itself (buildFacetAggregations). The hits query stays as it is.
 *
 * `openNow` is the one facet without a stored value: whether a place is open is worked out from its
 * opening ranges at the request time, so its facet is a `filter` aggregation of that clause, counted as the
 * single value `true` (the only value the filter takes). `openAt` has no facet: its instant is the filter's
 * own value, and a facet that applies every filter but its own would have no instant left to count at.
 * `q`, `near`, `radius`, `bbox`, `updatedSince` and `observedSince` are not value lists. `country` selects
 * the dataset and is never counted.
 *
 * What may be counted: the search document's fields, which hold only the public record's values
 * (search-document.ts); the coded fields are further limited to their vocabularies, so a value the
 * filter would refuse is never listed.
 *
 * Exact counts: a terms aggregation is exact on a single-shard index (the default). On several shards each
 * shard sends its top `shard_size` values; the coded facets ask each shard for their whole vocabulary, so
 * they stay exact, and only `city` (unbounded) may undercount a city that is outside a shard's top
 * CITY_SHARD_SIZE, which needs thousands of cities of similar size.
 */

export const FACET_NAMES = [
  'specialty',
  'city',
  'verified',
  'whatsapp',
  'language',
  'acceptingNewPatients',
  'wheelchairAccessible',
  'insurance',
  'openNow',
] as const satisfies ReadonlyArray<FilterName>;
export type FacetName = (typeof FACET_NAMES)[number];

export const FACET_LIMIT_DEFAULT = 10;
/** The labels' language when the search gives no `lang` (as the specialties list). */
export const FACET_LABEL_LANGUAGE_DEFAULT: PageLanguage = 'en';
export const FACET_LIMIT_MAX = 100;
/** Values each shard sends for `city` (see above): far more than FACET_LIMIT_MAX, so ties rarely drop one. */
export const CITY_SHARD_SIZE = 1_000;

/** The facets a search asks for, each once, in the order asked, and how many values each lists. */
export type FacetRequest = { names: FacetName[]; limit: number };

/** `value` is the filter's value as a query string carries it (`true`/`false` for a boolean filter). */
export type FacetValue = { value: string; count: number; label?: string };
/** The `facets` object of a page: every facet asked for, each with its values, most records first. */
export type Facets = Partial<Record<FacetName, FacetValue[]>>;

/** How each facet's values are stored and labelled. */
type FacetKind =
  | { kind: 'boolean' }
  | {
      kind: 'code';
      values: (country: CountryCode) => ReadonlyArray<string>;
      /** A value's label; undefined where the vocabulary has none (languages). */
      label: (code: string, country: CountryCode, lang: PageLanguage) => string | undefined;
    }
  | { kind: 'city' };

/** The facets counted by values: every one but openNow (counted by its clause, see above). */
export type ValuesFacetName = Exclude<FacetName, 'openNow'>;

const FACET_KINDS: Record<ValuesFacetName, FacetKind> = {
  specialty: {
    kind: 'code',
    values: () => SPECIALTY_CODES,
    label: (code, _, lang) => specialtyLabel(code, lang),
  },
  city: { kind: 'city' },
  verified: { kind: 'boolean' },
  whatsapp: { kind: 'boolean' },
  language: { kind: 'code', values: () => LANGUAGE_CODES, label: () => undefined },
  acceptingNewPatients: { kind: 'boolean' },
  wheelchairAccessible: { kind: 'boolean' },
  insurance: {
    kind: 'code',
    values: insuranceCodesOf,
    label: (code, country) => insuranceName(country, code),
  },
};

// ---- the parameters ----

export const FACETS_REASON = `must be a comma-separated list of facet names, each once: ${FACET_NAMES.join(', ')}`;
export const FACET_LIMIT_REASON = `must be an integer from 1 to ${FACET_LIMIT_MAX}`;
export const FACET_LIMIT_WITHOUT_FACETS_REASON =
  'only applies together with facets; add facets or drop facetLimit';

/** The names of a `facets` list, or null when one is unknown, empty or repeated. Splits on `,` only: linear. */
export function parseFacetNames(text: string): FacetName[] | null {
  const names = text.split(',');
  const known: ReadonlyArray<string> = FACET_NAMES;
  if (names.some((name) => !known.includes(name))) return null;
  if (new Set(names).size !== names.length) return null;
  return names as FacetName[];
}

/** `facets` as a query parameter or tool argument (the same text in both, like `fields`). */
export const facetsParameter = z
  .string({ error: FACETS_REASON })
  .transform((text, context): FacetName[] => {
    const names = parseFacetNames(text);
    if (names !== null) return names;
    context.issues.push({ code: 'custom', message: FACETS_REASON, input: text });
    return z.NEVER;
  })
  .optional()
  .describe(
    `API 1.4. Comma-separated facet names (${FACET_NAMES.join(', ')}): the answer adds \`facets\`, each value a filter of that name takes with how many records it would find and, for specialty, city and insurance, its label. A facet's counts apply every filter but its own (docs/api.md, "Facets").`,
  );

const facetLimitDescription = `API 1.4. Only with \`facets\`: values listed per facet, 1 to ${FACET_LIMIT_MAX}, most records first; default ${FACET_LIMIT_DEFAULT}.`;
export const facetLimitFromTool = z
  .number({ error: FACET_LIMIT_REASON })
  .int({ error: FACET_LIMIT_REASON })
  .min(1, { error: FACET_LIMIT_REASON })
  .max(FACET_LIMIT_MAX, { error: FACET_LIMIT_REASON })
  .optional()
  .describe(facetLimitDescription);
// Only up to three digits are converted; anything else fails with the reason.
export const facetLimitFromQuery = z
  .preprocess(
    (value) => (typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value),
    facetLimitFromTool,
  )
  .describe(facetLimitDescription);

// ---- the aggregation ----

/** A search's filter clause and the filter it comes from (`served`: the rule every query applies). */
export type NamedClause<Clause> = { from: FilterName | 'served' | 'internal'; clause: Clause };

type Order = [{ _count: 'desc' }, { _key: 'asc' }];
const ORDER: Order = [{ _count: 'desc' }, { _key: 'asc' }];

type TermsAggregation = {
  terms: { field: SearchField; size: number; shard_size: number; order: Order; include?: string[] };
  aggs?: { names: { terms: { field: 'cityName'; size: 1; order: Order } } };
};

/** A facet whose own filter the search sets: counted over the whole index with every clause but that one. */
type DisjunctiveFacet<Clause, Must> = {
  filter: { bool: { filter: Clause[]; must?: Must[] } };
  aggs: { values: TermsAggregation };
};
/** A facet counted among the records the search selects: its values, or (openNow) those open now. */
type MatchingFacet<Clause> =
  { filter: { match_all: Record<string, never> }; aggs: { values: TermsAggregation } } | { filter: Clause };

export type FacetAggregations<Clause, Must> = {
  /** The facets whose own filter the search sets (global leaves the search's query behind). */
  facets?: {
    global: Record<string, never>;
    aggs: Partial<Record<FacetName, DisjunctiveFacet<Clause, Must>>>;
  };
  /** Every other facet, under the search's query: no second pass over the index. */
  matching?: {
    filter: { match_all: Record<string, never> };
    aggs: Partial<Record<FacetName, MatchingFacet<Clause>>>;
  };
};

/**
 * The aggregations of a search with facets: for each facet, its values among the records every clause
 * of the search but the facet's own filter selects. A facet whose filter the search does not set counts
 * among the search's own records, which the query has already found: only the others run their clauses
 * (and the text query, the dearest part) again over the index. `openNowClause` is the open-at clause of
 * the request time, needed when `openNow` is asked for: its count is the search's records that clause
 * keeps, whether or not the search filters by it (its own filter added back is the same clause).
 */
export function buildFacetAggregations<Clause, Must>(
  request: FacetRequest,
  country: CountryCode,
  clauses: ReadonlyArray<NamedClause<Clause>>,
  must: ReadonlyArray<Must>,
  openNowClause?: Clause,
): FacetAggregations<Clause, Must> {
  const disjunctive: Partial<Record<FacetName, DisjunctiveFacet<Clause, Must>>> = {};
  const matching: Partial<Record<FacetName, MatchingFacet<Clause>>> = {};
  // In the table's order whatever the order asked: the same facets make the same request (and cache key).
  for (const name of FACET_NAMES.filter((known) => request.names.includes(known))) {
    if (name === 'openNow') {
      if (openNowClause === undefined) throw new Error('the openNow facet needs the request time');
      matching[name] = { filter: openNowClause };
      continue;
    }
    const values = valuesAggregation(name, country, request.limit);
    if (!clauses.some((named) => named.from === name)) {
      matching[name] = { filter: { match_all: {} }, aggs: { values } };
      continue;
    }
    const filter = clauses.filter((named) => named.from !== name).map((named) => named.clause);
    disjunctive[name] = {
      filter: { bool: must.length > 0 ? { filter, must: [...must] } : { filter } },
      aggs: { values },
    };
  }
  const aggregations: FacetAggregations<Clause, Must> = {};
  if (Object.keys(disjunctive).length > 0) aggregations.facets = { global: {}, aggs: disjunctive };
  if (Object.keys(matching).length > 0) {
    aggregations.matching = { filter: { match_all: {} }, aggs: matching };
  }
  return aggregations;
}

/** The terms aggregation of one facet's values, most records first, then value. */
export function valuesAggregation(
  name: ValuesFacetName,
  country: CountryCode,
  size: number,
): TermsAggregation {
  const field = SEARCH_FILTERS[name].field;
  const kind = FACET_KINDS[name];
  switch (kind.kind) {
    case 'boolean':
      return { terms: { field, size, shard_size: 2, order: ORDER } };
    case 'code': {
      const include = [...kind.values(country)];
      // Every shard sends its whole vocabulary: exact counts on any number of shards.
      return { terms: { field, size, shard_size: Math.max(include.length, 1), order: ORDER, include } };
    }
    case 'city':
      return {
        terms: { field, size, shard_size: CITY_SHARD_SIZE, order: ORDER },
        // The label: the most common published spelling of the city's name, as in the cities list.
        aggs: { names: { terms: { field: 'cityName', size: 1, order: ORDER } } },
      };
    default:
      return assertNever(kind);
  }
}

// ---- the answer ----

type Bucket = {
  key: unknown;
  key_as_string?: string;
  doc_count: number;
  names?: { buckets: ReadonlyArray<{ key: unknown }> };
};
type FacetResponse = { doc_count?: number; values?: { buckets: ReadonlyArray<Bucket> } };
/** The part of a search response the facets read: each facet under one of the two containers. */
export type FacetsResponse = {
  facets?: Partial<Record<FacetName, FacetResponse>>;
  matching?: Partial<Record<FacetName, FacetResponse>>;
};

/**
 * The `facets` object: every facet asked for (none found: an empty list), values as their filter takes
 * them, labels in `lang`. No aggregations (no index behind the alias yet): every facet empty.
 */
export function toFacets(
  request: FacetRequest,
  country: CountryCode,
  lang: PageLanguage | undefined,
  aggregations: FacetsResponse | undefined,
): Facets {
  const labelLanguage = lang ?? FACET_LABEL_LANGUAGE_DEFAULT;
  const facets: Facets = {};
  for (const name of request.names) {
    const facet = aggregations?.facets?.[name] ?? aggregations?.matching?.[name];
    if (name === 'openNow') {
      facets[name] = openNowValues(facet?.doc_count ?? 0);
      continue;
    }
    const buckets = facet?.values?.buckets ?? [];
    facets[name] = buckets.map((bucket) => facetValue(name, country, labelLanguage, bucket));
  }
  return facets;
}

/** The openNow facet's one value, `true`, with the records open at the request time; none: no value. */
export function openNowValues(count: number): FacetValue[] {
  return count > 0 ? [{ value: 'true', count }] : [];
}

export function facetValue(
  name: ValuesFacetName,
  country: CountryCode,
  lang: PageLanguage,
  bucket: Bucket,
): FacetValue {
  const count = bucket.doc_count;
  const kind = FACET_KINDS[name];
  switch (kind.kind) {
    case 'boolean':
      // Elasticsearch keys a boolean 1 or 0 and spells it in key_as_string.
      return { value: bucket.key_as_string === 'true' ? 'true' : 'false', count };
    case 'code': {
      const value = String(bucket.key);
      const label = kind.label(value, country, lang);
      return label === undefined ? { value, count } : { value, count, label };
    }
    case 'city': {
      const label = bucket.names?.buckets[0]?.key;
      return typeof label === 'string'
        ? { value: String(bucket.key), count, label }
        : { value: String(bucket.key), count };
    }
    default:
      return assertNever(kind);
  }
}

// An insurance scheme's own name by country and code (the same code may name another scheme elsewhere).
const INSURANCE_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries(INSURANCE_SCHEMES).flatMap(([country, schemes]) =>
    schemes.map((scheme): [string, string] => [`${country}:${scheme.code}`, scheme.name]),
  ),
);

function insuranceName(country: CountryCode, code: string): string | undefined {
  return INSURANCE_NAMES.get(`${country}:${code}`);
}

/** Whether a value or its label starts with the typed text, both folded (the facet-value search). */
export function matchesPrefix(value: FacetValue, folded: string): boolean {
  if (foldText(value.value).startsWith(folded)) return true;
  return value.label !== undefined && foldText(value.label).startsWith(folded);
}

// ---- the answer's schema, shared by the OpenAPI document and the MCP output schema ----

export const facetValueSchema = z
  .looseObject({
    value: z.string().meta({
      description:
        "The value as the facet's filter takes it in a query string (`true` or `false` for a boolean filter): `?<facet>=<value>` finds `count` records",
      examples: ['dentistry', 'berlin', 'true'],
    }),
    count: z.number().int().min(1).meta({
      description: 'Records the search would find with this value, every other filter applied',
    }),
    label: z
      .string()
      .optional()
      .meta({
        description:
          "Display label: a specialty's in `lang` (default en), a city's most common published name, an insurance scheme's own name; absent for the others",
        examples: ['Dentistry', 'Berlin', 'Gesetzliche Krankenversicherung'],
      }),
  })
  .meta({ id: 'FacetValue', description: 'One value of a facet and how many records it finds' });

const facetValuesSchema = z.array(facetValueSchema).max(FACET_LIMIT_MAX);

export const facetsSchema = z
  .looseObject(
    Object.fromEntries(FACET_NAMES.map((name) => [name, facetValuesSchema.optional()])) as {
      [Name in FacetName]: z.ZodOptional<typeof facetValuesSchema>;
    },
  )
  .meta({
    id: 'Facets',
    description:
      'API 1.4, only with `facets`: each facet asked for, with its values, most records first, then value. A facet counts with every filter of the search but its own.',
  });
