import type { DirectoryResourceType } from './fhir-resources.js';

/**
 * THE declaration of what /fhir/R4 serves: the interactions, the search parameters with their
 * modifiers and prefixes, and the includes. The CapabilityStatement is built from it (capability.ts),
 * the search translation accepts exactly what it declares (search-translation.ts), and the
 * conformance spec runs one test per entry: a parameter served but not declared, or declared but
 * not served, fails there.
 *
 * Every filter is answered by the API's own search (its filter table and query builder): a parameter is
 * declared only where it translates into one of the API's filters with FHIR's meaning, so some FHIR
 * parameters of these types are not here yet (docs/fhir.md, "Not yet served").
 */

export type SearchParameterType = 'token' | 'string' | 'date' | 'reference' | 'special';

export type SearchParameterDeclaration = {
  name: string;
  type: SearchParameterType;
  resourceTypes: readonly DirectoryResourceType[];
  /** The standard definition, when the parameter is FHIR R4's own. */
  definition?: string;
  /** The modifiers accepted besides none. */
  modifiers?: readonly string[];
  /** The comparison prefixes accepted (date parameters); none given means `eq`. */
  prefixes?: readonly string[];
  /** Whether one parameter may list several values separated by commas (an OR). */
  orValues?: true;
  documentation: string;
};

export const ALL_TYPES: readonly DirectoryResourceType[] = ['Organization', 'Location', 'HealthcareService'];

const R4 = 'http://hl7.org/fhir/SearchParameter';

export const SEARCH_PARAMETERS = [
  {
    name: '_id',
    type: 'token',
    resourceTypes: ALL_TYPES,
    definition: `${R4}/Resource-id`,
    orValues: true,
    documentation:
      'Resource ids, comma-separated (up to 100): the record ids the resources are derived from. Combines only with the result parameters and with organization/location.',
  },
  {
    name: '_lastUpdated',
    type: 'date',
    resourceTypes: ALL_TYPES,
    definition: `${R4}/Resource-lastUpdated`,
    prefixes: ['ge', 'gt', 'sa', 'le', 'lt', 'eb', 'eq'],
    documentation:
      'When the record’s public fields last changed (meta.lastUpdated): ge (at or after), gt and sa (after), le (at or before), lt and eb (before), eq or no prefix (within). A date without a time is a UTC day, a date-time (with its offset) the millisecond it names. Given twice, a lower and an upper bound make a range.',
  },
  {
    name: 'name',
    type: 'string',
    resourceTypes: ALL_TYPES,
    definition: `${R4}/Organization-name`,
    modifiers: ['contains', 'exact'],
    documentation:
      'The name or legal name (alias), case- and accent-insensitive: every word given is a word of it, the last one may be the start of a word ("clínica den" finds "Clínica Dental Sol"). name:contains: the text anywhere in the name (else the legal name). name:exact: the whole name, case and accents included, or the whole alias (Organization, Location; HealthcareService has none).',
  },
  {
    name: '_text',
    type: 'special',
    resourceTypes: ALL_TYPES,
    documentation:
      'Free text, ranked by the API’s relevance (typos, prefixes, specialties in any language); results come best match first.',
  },
  {
    name: 'address-country',
    type: 'string',
    resourceTypes: ALL_TYPES,
    definition: `${R4}/Location-address-country`,
    documentation:
      'The dataset: an ISO 3166-1 alpha-2 country code (case-insensitive, exact). Required by every search that does not select ids, as `country` is by /api/v1/doctors. On HealthcareService it is the address of its location.',
  },
  {
    name: 'address-city',
    type: 'string',
    resourceTypes: ALL_TYPES,
    definition: `${R4}/Location-address-city`,
    documentation:
      'The whole city name (case- and accent-insensitive, e.g. "Madrid" or "San Sebastián"), or its slug; another name of a large city finds the same records. Not a prefix. On HealthcareService it is the address of its location.',
  },
  {
    name: 'address',
    type: 'string',
    resourceTypes: ['Organization', 'Location'],
    definition: `${R4}/Location-address`,
    documentation:
      'The start of any part of the address: street, city, state, postal code or country code, case- and accent-insensitive ("calle mayor" finds "Calle Mayor 5", "280" finds 28001).',
  },
  {
    name: 'address-postalcode',
    type: 'string',
    resourceTypes: ['Organization', 'Location'],
    definition: `${R4}/Location-address-postalcode`,
    documentation:
      'The start of the postal code (or all of it), case- and accent-insensitive, spaces and punctuation ignored ("280" finds 28001, "sw1a1" finds "SW1A 1AA").',
  },
  {
    name: 'near',
    type: 'special',
    resourceTypes: ['Location'],
    definition: `${R4}/Location-near`,
    documentation:
      'latitude|longitude|distance|unit (unit km or m; distance default 5 km, at most 50 km): locations within that distance, nearest first.',
  },
  {
    name: 'specialty',
    type: 'token',
    resourceTypes: ['HealthcareService'],
    definition: `${R4}/HealthcareService-specialty`,
    orValues: true,
    documentation:
      'Specialty codes of the directory code system, each as system|code or code, comma-separated for any of them (CodeSystem/specialty lists them).',
  },
  {
    name: 'service-type',
    type: 'token',
    resourceTypes: ['HealthcareService'],
    definition: `${R4}/HealthcareService-service-type`,
    orValues: true,
    documentation:
      'The same codes as specialty, comma-separated for any of them (a service’s type is its specialties here).',
  },
  {
    name: 'new-patients',
    type: 'token',
    resourceTypes: ['HealthcareService'],
    documentation:
      'Whether the service takes new patients, as its Plan-Net newpatients extension says: newpt (accepting) or nopt (not accepting), as code or AcceptingPatientsCS|code. A service whose source does not say matches neither. Our own parameter: Plan-Net defines the extension, not a search on it.',
  },
  {
    name: 'active',
    type: 'token',
    resourceTypes: ['Organization', 'HealthcareService'],
    definition: `${R4}/Organization-active`,
    documentation: 'Every served record is active: true matches all, false none.',
  },
  {
    name: 'organization',
    type: 'reference',
    resourceTypes: ['Location', 'HealthcareService'],
    definition: `${R4}/Location-organization`,
    orValues: true,
    documentation:
      'Organization/{id} or {id}, comma-separated (up to 100): the managing organization (Location) or provider (HealthcareService).',
  },
  {
    name: 'location',
    type: 'reference',
    resourceTypes: ['HealthcareService'],
    definition: `${R4}/HealthcareService-location`,
    orValues: true,
    documentation: 'Location/{id} or {id}, comma-separated (up to 100): where the service is provided.',
  },
] as const satisfies readonly SearchParameterDeclaration[];

export type SearchParameterName = (typeof SEARCH_PARAMETERS)[number]['name'];

/** The parameters that select records by id: they combine with each other, not with the filters. */
export const ID_PARAMETERS: readonly SearchParameterName[] = ['_id', 'organization', 'location'];

/** The result parameters (FHIR's "search result parameters" and our paging token). */
export const RESULT_PARAMETERS = [
  '_count',
  '_summary',
  '_include',
  '_revinclude',
  '_elements',
  '_sort',
  '_cursor',
  '_format',
] as const;

/**
 * The `_sort` keys served, each exactly one of the API's orders (`sort` of /api/v1/doctors), ascending
 * only: `name` is the API's name order (the folded name, then the id). Relevance (`_text`'s order) and
 * distance (`near`'s) have no standard FHIR R4 sort key: they are those searches' default order.
 */
export const SORT_KEYS = ['name'] as const;

/**
 * What the CapabilityStatement says of the result parameters (FHIR R4 has no element to declare them
 * in but the documentation): built from the lists above.
 */
export const RESULT_PARAMETERS_DOCUMENTATION = `Result parameters: _count (1 to 100), _summary=count, _include and _revinclude (searchInclude, searchRevInclude), _elements (top-level element names, comma-separated: each match carries only those and resourceType, id and meta, tagged SUBSETTED; included resources come whole; names the type does not fill are ignored; read and vread take it too), _sort=${SORT_KEYS.join(',')} (ascending only; without it a search comes in name order, a _text search best match first and a near search nearest first), _format.`;

/** A reference between the three types: what `_include` follows and `_revinclude` follows back. */
export type IncludeDeclaration = {
  source: DirectoryResourceType;
  parameter: SearchParameterName;
  target: DirectoryResourceType;
};

export const INCLUDES: readonly IncludeDeclaration[] = [
  { source: 'Location', parameter: 'organization', target: 'Organization' },
  { source: 'HealthcareService', parameter: 'organization', target: 'Organization' },
  { source: 'HealthcareService', parameter: 'location', target: 'Location' },
];

export function includeName(include: IncludeDeclaration): string {
  return `${include.source}:${include.parameter}`;
}

/**
 * What each resource type answers: read and vread (the current version only), search, and the history
 * of the type (the changes feed) and of an instance (its current version only).
 */
export const INTERACTIONS = ['read', 'vread', 'search-type', 'history-type', 'history-instance'] as const;

/**
 * The parameters of history-type (`GET /{type}/_history`), besides `_cursor` of its next links; the
 * instance history takes `_since` and `_count`. Not search parameters: the CapabilityStatement states
 * them in the interactions' documentation.
 */
export const HISTORY_PARAMETERS = [
  {
    name: 'address-country',
    documentation:
      'The dataset (ISO 3166-1 alpha-2, case-insensitive): required by history-type, as `country` is by /api/v1/changes.',
  },
  {
    name: '_since',
    documentation:
      'An instant with its offset: the changes made after it (and possibly a few made shortly before). Without it, every record served now, then the changes after.',
  },
  { name: '_count', documentation: 'Entries per page, 1 to 100 (default 20).' },
] as const;

/** The parameters a type's search accepts, in table order. */
export function searchParametersOf(type: DirectoryResourceType): SearchParameterDeclaration[] {
  return SEARCH_PARAMETERS.filter((parameter) =>
    (parameter.resourceTypes as readonly DirectoryResourceType[]).includes(type),
  );
}

/** The page size without `_count`, and its bounds (the API's own limit). */
export const COUNT_DEFAULT = 20;
