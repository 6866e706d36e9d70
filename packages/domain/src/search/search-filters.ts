import { z } from 'zod';
import { COUNTRY_CODES_TEXT } from '../requests/country-codes-text.js';
import { SLUG_PATTERN, type CountryCode } from '../events/events.js';
import { countryFromQuery, countryFromTool, optionalText } from '../requests/query-parameters.js';
import { foldText } from '../shared/text.js';
import {
  INSURANCE_CODES,
  INSURANCE_CODES_BY_COUNTRY_TEXT,
  LANGUAGE_CODES,
} from '../events/patient-attributes.js';
import { SPECIALTY_CODES } from '../places/specialty-vocabulary.js';
import {
  BBOX_REASON,
  GEO_RADIUS_DEFAULT_M,
  GEO_RADIUS_MAX_M,
  NEAR_REASON,
  parseBbox,
  parseNear,
  type BoundingBox,
  type GeoPoint,
} from './geo.js';
import { canonicalInstant, openAtText } from '../requests/instant-text.js';
import { OPEN_NOW_REASON } from './open-at.js';
import {
  addressKey,
  exactNameOf,
  postalCodeKey,
  type SearchDocument,
  type SearchField,
} from './search-document.js';

/**
 * THE filter table (docs/api.md, `GET /api/v1/doctors` — search): every search filter is declared here once,
 * and everything that names filters is derived from it: the `SearchFilters` type, the known-parameter list,
 * the API and MCP input schemas (search-params.ts), `filtersOf`, the cursor's filter fingerprint (cursor.ts),
 * the query clauses (search-query.ts) and the per-filter OpenAPI / tool text. Adding a filter is an entry
 * here, its index field in search-document.ts, and its sample values in the filter-table spec.
 *
 * Each entry:
 * - `fromQuery` / `fromTool`: the zod schema for raw query-string text and for typed MCP tool arguments (they
 *   differ only in parsing); optional unless the filter is required;
 * - `description`: shown for the parameter in the OpenAPI document and the tool's input schema;
 * - `field` and `match`: the search-document field the filter reads, by `term` (exact value), `city` (a city
 *   slug, or the slug of another name of the city, place-names.ts: every slug of the city), `words` (q's
 *   literal words, the last one a prefix), `near` (a point: keeps records within the radius and orders by
 *   distance), `radius` (the metres around `near`), `bbox` (a viewport: keeps records inside it), `openAt` (an instant: keeps records whose opening ranges
 *   hold its local minute of the week, see open-at.ts) or `openNow` (the same at the time of the request,
 *   which the edge passes in);
 * - `canonical`: the value as compared, in the index field's own type (a number of metres for `radius`, the
 *   UTC instant for `openAt`, `true` for `openNow`): what the query clause sends and what the cursor
 *   fingerprint binds (so equivalent values give the same cursor);
 * - `addedIn`: the minor version that added the parameter, when it came later than the first. Such parameters
 *   are named in the unknown-parameter reason only when the request uses one of them, so a request without
 *   them gets the same answer byte for byte (docs/api.md, Compatibility).
 */

export const Q_MAX_LENGTH = 100;

const BOOLEAN_REASON = 'must be true or false';

const city = z
  .string({ error: 'must be a string' })
  .regex(SLUG_PATTERN, {
    error: 'must be a lowercase slug such as "san-sebastian" (a-z, 0-9, single hyphens)',
  })
  .optional();

const q = optionalText(Q_MAX_LENGTH);

// Query strings carry text: only exactly `true`/`false` are converted; anything else reaches the
// typed schema unchanged and fails there with the field's reason.
const booleanFromQuery = () =>
  z.preprocess(
    (value) => (value === 'true' ? true : value === 'false' ? false : value),
    z.boolean({ error: BOOLEAN_REASON }).optional(),
  );
const booleanFromTool = () => z.boolean({ error: BOOLEAN_REASON }).optional();

// `near` is the same "lat,lng" text in a query string and in tool arguments.
const near = z
  .string({ error: NEAR_REASON })
  .transform((text, context): GeoPoint => {
    const parsed = parseNear(text);
    if (parsed.ok) return parsed.value;
    context.issues.push({ code: 'custom', message: parsed.error, input: text });
    return z.NEVER;
  })
  .optional();

// `bbox` is the same "minLng,minLat,maxLng,maxLat" text in a query string and in tool arguments.
const bbox = z
  .string({ error: BBOX_REASON })
  .transform((text, context): BoundingBox => {
    const parsed = parseBbox(text);
    if (parsed.ok) return parsed.value;
    context.issues.push({ code: 'custom', message: parsed.error, input: text });
    return z.NEVER;
  })
  .optional();

const RADIUS_REASON = `must be an integer number of metres from 1 to ${GEO_RADIUS_MAX_M}`;
const radiusFromTool = z
  .number({ error: RADIUS_REASON })
  .int({ error: RADIUS_REASON })
  .min(1, { error: RADIUS_REASON })
  .max(GEO_RADIUS_MAX_M, { error: RADIUS_REASON })
  .optional();
// Only digits are converted; anything else fails with the reason.
const radiusFromQuery = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value),
  radiusFromTool,
);

export const SPECIALTY_REASON =
  'must be a specialty code such as "dentistry"; GET /api/v1/specialties (MCP tool list_specialties) lists them';
// One code, exactly as listed (codes are lowercase); the same enum for query text and tool arguments.
const specialty = z.enum(SPECIALTY_CODES, { error: SPECIALTY_REASON }).optional();

// openNow is only ever true: "not open now" would have to say what a record without structured hours
// is, and a filter that hides unknowns is a trap; leaving openNow out is the way not to filter.
const openNowFromTool = z.literal(true, { error: OPEN_NOW_REASON }).optional();
const openNowFromQuery = z.preprocess((value) => (value === 'true' ? true : value), openNowFromTool);

// API 1.3 patient attributes: one code each, exactly as listed (codes are lowercase), like `specialty`.
const LANGUAGE_REASON = `must be one lowercase ISO 639-1 language code: ${LANGUAGE_CODES.join(', ')}`;
const language = z.enum(LANGUAGE_CODES, { error: LANGUAGE_REASON }).optional();
const INSURANCE_REASON = `must be one lowercase insurance code of the country (${INSURANCE_CODES_BY_COUNTRY_TEXT}; docs/api.md, "Insurance codes")`;
const insurance = z.enum(INSURANCE_CODES, { error: INSURANCE_REASON }).optional();

type Match = 'term' | 'city' | 'words' | 'near' | 'radius' | 'bbox' | 'openAt' | 'openNow' | 'since';

/** The minor versions that added parameters after the first (1.1); see `addedIn`. */
export const LATER_VERSIONS = ['1.2', '1.3', '1.4', '1.5'] as const;
export type LaterVersion = (typeof LATER_VERSIONS)[number];

/** The canonical value's type: the index field's, except for the filters that compute their clause. */
type CanonicalValue<Field extends SearchField, How extends Match> = How extends 'radius'
  ? number
  : How extends 'bbox'
    ? BoundingBox
    : How extends 'openAt' | 'since'
      ? string
      : How extends 'openNow'
        ? true
        : ValueOf<SearchDocument[Field]>;

// A term on an array field (a record's specialty codes) matches when any element equals the value.
type ValueOf<FieldType> = FieldType extends ReadonlyArray<infer Element> ? Element : FieldType;

type FilterDefinition<
  FromQuery extends z.ZodType,
  FromTool extends z.ZodType,
  Field extends SearchField,
  How extends Match,
> = {
  fromQuery: FromQuery;
  fromTool: FromTool;
  description: string;
  field: Field;
  match: How;
  canonical: (value: NonNullable<z.output<FromQuery>>) => CanonicalValue<Field, How>;
  addedIn?: LaterVersion;
};

/** Ties each entry's value, field and canonical form together for the compiler. */
function filter<
  FromQuery extends z.ZodType,
  FromTool extends z.ZodType,
  Field extends SearchField,
  How extends Match,
>(
  definition: FilterDefinition<FromQuery, FromTool, Field, How>,
): FilterDefinition<FromQuery, FromTool, Field, How> {
  return definition;
}

// Order matters: it is the order of the known-parameter list in error messages and of the query clauses.
export const SEARCH_FILTERS = {
  country: filter({
    fromQuery: countryFromQuery,
    fromTool: countryFromTool,
    description: `Dataset code, case-insensitive: ${COUNTRY_CODES_TEXT.accepted}. ${COUNTRY_CODES_TEXT.live} have live data; ${COUNTRY_CODES_TEXT.empty} are accepted and return an empty page.`,
    field: 'country',
    match: 'term',
    canonical: (value) => value.toLowerCase() as CountryCode,
  }),
  city: filter({
    fromQuery: city,
    fromTool: city,
    description:
      'City slug, as in profile URLs, e.g. "berlin" or "san-sebastian". The slug of another name of a large city of the dataset finds the same records (API 1.4; "munich" and "monaco-di-baviera" as "muenchen").',
    field: 'citySlug',
    match: 'city',
    canonical: (value) => value,
  }),
  q: filter({
    fromQuery: q,
    fromTool: q,
    description:
      'Literal text, case- and accent-insensitive: every word must occur in the name, legal name, city, primary type or specialties; the last word may be a prefix. No query syntax is interpreted. Blank means no text filter.',
    field: 'searchText',
    match: 'words',
    // Folded like the indexed searchText, so matching and cursors ignore case, accents and spacing.
    canonical: (value) => foldText(value),
  }),
  whatsapp: filter({
    fromQuery: booleanFromQuery(),
    fromTool: booleanFromTool(),
    description:
      'true selects records whose primary number appears WhatsApp-reachable (a technical signal, never consent); false the others.',
    field: 'whatsappEligible',
    match: 'term',
    canonical: (value) => value,
  }),
  verified: filter({
    fromQuery: booleanFromQuery(),
    fromTool: booleanFromTool(),
    description: 'true selects verified listings, false unverified ones.',
    field: 'verified',
    match: 'term',
    canonical: (value) => value,
  }),
  near: filter({
    fromQuery: near,
    fromTool: near,
    description:
      'API 1.2. "latitude,longitude" in decimal degrees (WGS 84), e.g. "52.52,13.405": selects records located within `radius` of this point, ordered by distance (nearest first, then id), each with `distanceMeters`. Records without a location never match.',
    field: 'location',
    match: 'near',
    canonical: (value) => value,
    addedIn: '1.2',
  }),
  radius: filter({
    fromQuery: radiusFromQuery,
    fromTool: radiusFromTool,
    description: `API 1.2. Only with \`near\`: the search radius in metres, 1 to ${GEO_RADIUS_MAX_M}; default ${GEO_RADIUS_DEFAULT_M}.`,
    field: 'location',
    match: 'radius',
    canonical: (value) => value,
    addedIn: '1.2',
  }),
  bbox: filter({
    fromQuery: bbox,
    fromTool: bbox,
    description:
      'API 1.3. A map viewport, "minLng,minLat,maxLng,maxLat" in decimal degrees (west, south, east, north edges), e.g. "13.3,52.4,13.5,52.6": selects records located inside it, edges included. A west edge east of the east edge is a box across the antimeridian. Combines with every filter and every sort. Records without a location never match.',
    field: 'location',
    match: 'bbox',
    canonical: (value) => value,
    addedIn: '1.3',
  }),
  specialty: filter({
    fromQuery: specialty,
    fromTool: specialty,
    description:
      'API 1.2. One specialty code, e.g. "dentistry" or "pediatrics": selects records whose primary type or specialties carry it. GET /api/v1/specialties lists the codes with labels in every page language.',
    field: 'specialtyCodes',
    match: 'term',
    canonical: (value) => value,
    addedIn: '1.2',
  }),
  openAt: filter({
    fromQuery: openAtText,
    fromTool: openAtText,
    description:
      'API 1.2. An instant, ISO 8601 with a UTC offset or Z, e.g. "2026-11-23T09:30:00+01:00": selects records open at that moment in their own time zone (across midnight and daylight-saving changes). Records without structured opening hours never match.',
    field: 'openRanges',
    match: 'openAt',
    canonical: canonicalInstant,
    addedIn: '1.2',
  }),
  openNow: filter({
    fromQuery: openNowFromQuery,
    fromTool: openNowFromTool,
    description:
      'API 1.2. true (the only value) selects records open when the request is served, in their own time zone; each page of a paged search is evaluated at its own request time. Records without structured opening hours never match.',
    field: 'openRanges',
    match: 'openNow',
    canonical: (value) => value,
    addedIn: '1.2',
  }),
  // API 1.3 patient attributes. Unknown (a source that does not say) is missing in the index and
  // matches no value: `acceptingNewPatients=false` never lists a record whose source did not say.
  language: filter({
    fromQuery: language,
    fromTool: language,
    description:
      'API 1.3. One ISO 639-1 language code, lowercase, e.g. "en": selects records whose source says the language is spoken. Records whose source does not say never match.',
    field: 'languages',
    match: 'term',
    canonical: (value) => value,
    addedIn: '1.3',
  }),
  acceptingNewPatients: filter({
    fromQuery: booleanFromQuery(),
    fromTool: booleanFromTool(),
    description:
      'API 1.3. true selects records that take new patients, false those that do not. Records whose source does not say match neither.',
    field: 'acceptingNewPatients',
    match: 'term',
    canonical: (value) => value,
    addedIn: '1.3',
  }),
  wheelchairAccessible: filter({
    fromQuery: booleanFromQuery(),
    fromTool: booleanFromTool(),
    description:
      'API 1.3. true selects records with a wheelchair-accessible entrance, false those without. Records whose source does not say match neither.',
    field: 'wheelchairAccessible',
    match: 'term',
    canonical: (value) => value,
    addedIn: '1.3',
  }),
  insurance: filter({
    fromQuery: insurance,
    fromTool: insurance,
    description: `API 1.3. One public insurance or health-system code of the country, lowercase, e.g. "gkv": selects records that work with it. The codes by country: ${INSURANCE_CODES_BY_COUNTRY_TEXT} (docs/api.md, "Insurance codes"); a code of another country matches nothing. Records whose source does not say never match.`,
    field: 'insurance',
    match: 'term',
    canonical: (value) => value,
    addedIn: '1.3',
  }),
  updatedSince: filter({
    fromQuery: openAtText,
    fromTool: openAtText,
    description:
      'API 1.3. An instant, ISO 8601 with a UTC offset or Z, e.g. "2026-11-01T00:00:00Z": selects records whose public fields changed at or after it (their `updatedAt`, which `fields` returns). A crawl that found a record as it was does not count as a change; `observedAt` says when it was last seen.',
    field: 'updatedAt',
    match: 'since',
    canonical: canonicalInstant,
    addedIn: '1.3',
  }),
  observedSince: filter({
    fromQuery: openAtText,
    fromTool: openAtText,
    description:
      'API 1.5. An instant, ISO 8601 with a UTC offset or Z, e.g. "2026-09-01T00:00:00Z": selects records a crawl observed at or after it (their `observedAt`, which `fields` returns), whether or not it changed them. `GET /api/v1/datasets` gives each dataset\'s share of records observed in the last 90 days.',
    field: 'observedAt',
    match: 'since',
    canonical: canonicalInstant,
    addedIn: '1.5',
  }),
};

type SearchFilterTable = typeof SEARCH_FILTERS;
export type FilterName = keyof SearchFilterTable;
export const FILTER_NAMES = Object.keys(SEARCH_FILTERS) as FilterName[];

/**
 * Filters no public parameter sets: internal options of the query builder, which the FHIR directory
 * (packages/fhir, search-translation.ts) sets after parsing the rest of a search as /api/v1's. They are
 * not in the filter table, so neither /api/v1 nor the MCP tool accepts or documents them; they select
 * records and bind cursors like the table's filters.
 * - `nameWords`: every word of the text (folded) is a word of the name or legal name, the last one a
 *   prefix (FHIR's default string match of `name`, word by word).
 * - `nameContains`: the folded text occurs in the folded display name (`sortName`: the name, else the
 *   legal name), anywhere (FHIR's `name:contains`).
 * - `updatedBefore`: `updatedAt` before the instant, or at or before it when `inclusive` (FHIR's
 *   `_lastUpdated` upper bounds); with `updatedSince` a range.
 * - `specialtyAny`: any of the specialty codes (an OR), where `specialty` takes one.
 * - `nameExact`: the display name is exactly `text` (case and accents count, NFC), or, with `orLegalName`,
 *   the legal name is (FHIR's `name:exact`: name or alias on Organization and Location, the name alone on
 *   HealthcareService).
 * - `postalCodePrefix`: the postal code starts with the text, compared as `postalCodeKey` (FHIR's string
 *   match of `address-postalcode`).
 * - `addressPrefix`: a part of the address (street, city, state, postal code, country) starts with the
 *   text, compared as `addressKey` (FHIR's string match of `address`).
 */
export type InternalFilters = {
  nameWords?: string;
  nameContains?: string;
  nameExact?: { text: string; orLegalName: boolean };
  postalCodePrefix?: string;
  addressPrefix?: string;
  updatedBefore?: { instant: string; inclusive: boolean };
  specialtyAny?: string[];
};

/** The filters of a search, as validated: what selects records and what a cursor is bound to. */
export type SearchFilters = z.output<
  z.ZodObject<{ [Name in FilterName]: SearchFilterTable[Name]['fromQuery'] }>
> & { internal?: InternalFilters };

/**
 * The internal filters in canonical form (folded text, sorted codes, the UTC instant), or null when none
 * is set: what a cursor binds besides the table's filters.
 */
export function canonicalInternalFilters(internal: InternalFilters | undefined): InternalFilters | null {
  if (internal === undefined) return null;
  const canonical: InternalFilters = {};
  if (internal.nameWords !== undefined) canonical.nameWords = foldText(internal.nameWords);
  if (internal.nameContains !== undefined) canonical.nameContains = foldText(internal.nameContains);
  if (internal.updatedBefore !== undefined)
    canonical.updatedBefore = {
      instant: canonicalInstant(internal.updatedBefore.instant),
      inclusive: internal.updatedBefore.inclusive,
    };
  if (internal.specialtyAny !== undefined)
    canonical.specialtyAny = [...new Set(internal.specialtyAny)].sort();
  if (internal.nameExact !== undefined)
    canonical.nameExact = {
      text: exactNameOf(internal.nameExact.text),
      orLegalName: internal.nameExact.orLegalName,
    };
  if (internal.postalCodePrefix !== undefined)
    canonical.postalCodePrefix = postalCodeKey(internal.postalCodePrefix);
  if (internal.addressPrefix !== undefined) canonical.addressPrefix = addressKey(internal.addressPrefix);
  return Object.keys(canonical).length === 0 ? null : canonical;
}

/** One value of a filter in its canonical form (see `canonical` above). */
export type CanonicalFilterValue = ReturnType<SearchFilterTable[FilterName]['canonical']>;

/** The minor version that added a filter: 1.1 for the first ones. */
export function filterAddedIn(name: FilterName): '1.1' | LaterVersion {
  return SEARCH_FILTERS[name].addedIn ?? '1.1';
}

/** The zod shape of the filters for one input form, each field described from the table. */
export function filterShape<Form extends 'fromQuery' | 'fromTool'>(
  form: Form,
): { [Name in FilterName]: SearchFilterTable[Name][Form] } {
  return Object.fromEntries(
    FILTER_NAMES.map((name) => [name, SEARCH_FILTERS[name][form].describe(SEARCH_FILTERS[name].description)]),
  ) as { [Name in FilterName]: SearchFilterTable[Name][Form] };
}

export type FilterDescription = { name: FilterName; required: boolean; description: string };

/** Each filter's name and description, in table order: the per-filter text of the API and tool descriptions. */
export function filterDescriptions(): FilterDescription[] {
  return FILTER_NAMES.map((name) => ({
    name,
    // Required is whatever the schema says: absence is refused.
    required: !SEARCH_FILTERS[name].fromQuery.safeParse(undefined).success,
    description: SEARCH_FILTERS[name].description,
  }));
}

/** The part of the parameters that selects records (and that a cursor is bound to); absent ones omitted. */
export function filtersOf<Params extends SearchFilters>(params: Params): SearchFilters {
  const filters: Partial<Record<FilterName, unknown>> = {};
  for (const name of FILTER_NAMES) {
    if (params[name] !== undefined) filters[name] = params[name];
  }
  const internal = canonicalInternalFilters(params.internal);
  return (internal === null ? filters : { ...filters, internal }) as SearchFilters;
}

export type CanonicalFilter = {
  name: FilterName;
  field: SearchField;
  match: Match;
  value: CanonicalFilterValue;
};

/** Every filter present, in table order, with its index field and canonical value. */
export function canonicalFilters(filters: SearchFilters): CanonicalFilter[] {
  const present: CanonicalFilter[] = [];
  for (const name of FILTER_NAMES) {
    const value = filters[name];
    if (value === undefined) continue;
    const { field, match, canonical } = SEARCH_FILTERS[name];
    // The table's entries are typed one by one; indexing it by a name union loses the pairing.
    const canonicalOf = canonical as (value: NonNullable<SearchFilters[FilterName]>) => CanonicalFilterValue;
    present.push({ name, field, match, value: canonicalOf(value) });
  }
  return present;
}
