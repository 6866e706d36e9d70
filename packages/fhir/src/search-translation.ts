import {
  LIMIT_MAX,
  MAX_BATCH_IDS,
  SPECIALTY_CODES,
  fail,
  foldText,
  ok,
  parseSearchParams,
  postalCodeKey,
  addressKey,
  type InternalFilters,
  type ParameterError,
  type Result,
  type SearchRequest,
} from '@directory/domain';
import { parseElements } from './elements.js';
import type { DirectoryResourceType } from './fhir-resources.js';
import { PLAN_NET } from './record-resources.js';
import { placeIdOf } from './resource-ids.js';
import {
  COUNT_DEFAULT,
  ID_PARAMETERS,
  INCLUDES,
  RESULT_PARAMETERS,
  SORT_KEYS,
  includeName,
  searchParametersOf,
  type IncludeDeclaration,
} from './search-declarations.js';
import { specialtyCodeSystemUrl } from './specialty-codes.js';

/**
 * A FHIR search (its parameters, from the query string or a form-encoded `_search` body) as the API's
 * own search: the FHIR parameters become the query string of GET /api/v1/doctors and go through its
 * parser (`parseSearchParams`), so the filters, their validation, the query builder, the relevance
 * ranking and the signed cursors are the API's. Parameters that select ids go to the batch get instead.
 *
 * FHIR's rules kept here: an unknown parameter is ignored and left out of the self link unless the
 * client asked for `Prefer: handling=strict` (then it is a 400); a modifier or prefix that is not
 * declared, a repeated parameter or a bad value is a 400 naming the parameter.
 */

/** The parameters as received: each name with its values in order (a repeated name has several). */
export type FhirParameters = ReadonlyArray<readonly [name: string, value: string]>;

export type ResultParameters = {
  count: number;
  summaryCount: boolean;
  include: IncludeDeclaration[];
  revinclude: IncludeDeclaration[];
  /** `_elements`: the element names the matches keep (besides the mandatory ones); absent: whole. */
  elements?: string[];
};

/** What the search asks of the directory. */
export type FhirQuery =
  | { kind: 'search'; request: SearchRequest }
  | { kind: 'ids'; placeIds: string[] }
  /** A search that can match nothing (active=false): no need to ask. */
  | { kind: 'nothing' };

export type TranslatedSearch = {
  query: FhirQuery;
  result: ResultParameters;
  /** The parameters understood, in canonical order, without `_cursor`: what the self and next links repeat. */
  selfParameters: Array<[string, string]>;
};

export type TranslationOptions = { siteOrigin: string; strict: boolean };

// Which API parameter each FHIR parameter becomes (its errors are reported under the FHIR name).
const API_NAMES: Readonly<Record<string, string>> = {
  'address-country': 'country',
  'address-city': 'city',
  _text: 'q',
  near: 'near',
  specialty: 'specialty',
  'service-type': 'specialty',
  _lastUpdated: 'updatedSince',
  'new-patients': 'acceptingNewPatients',
  _count: 'limit',
  _cursor: 'cursor',
  _sort: 'sort',
};

const KM = 1000;
const NEAR_DEFAULT_M = 5 * KM;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export function translateSearch(
  type: DirectoryResourceType,
  parameters: FhirParameters,
  options: TranslationOptions,
): Result<TranslatedSearch, ParameterError[]> {
  const declared = new Map(searchParametersOf(type).map((declaration) => [declaration.name, declaration]));
  const errors: ParameterError[] = [];
  const given = new Map<string, string>();
  const raw: Record<string, string> = { fields: '*' };
  const result: ResultParameters = {
    count: COUNT_DEFAULT,
    summaryCount: false,
    include: [],
    revinclude: [],
  };
  const includes: string[] = [];
  const revincludes: string[] = [];
  const modifiers = new Map<string, string>();
  let lastUpdatedExtra: string | undefined;
  const internal: InternalFilters = {};

  for (const [fullName, value] of parameters) {
    const [name = '', modifier] = fullName.split(':', 2);
    if (name === '_include' || name === '_revinclude') {
      (name === '_include' ? includes : revincludes).push(value);
      continue;
    }
    const isResult = (RESULT_PARAMETERS as readonly string[]).includes(name);
    const declaration = declared.get(name);
    if (!isResult && declaration === undefined) {
      if (options.strict)
        errors.push({ parameter: fullName, reason: 'is not a parameter this server supports' });
      continue;
    }
    if (modifier !== undefined && !(declaration?.modifiers ?? []).includes(modifier)) {
      errors.push({ parameter: fullName, reason: `the modifier :${modifier} is not supported` });
      continue;
    }
    if (given.has(name)) {
      // Two _lastUpdated are a range: one lower and one upper bound (checked with their values).
      if (name === '_lastUpdated' && lastUpdatedExtra === undefined) lastUpdatedExtra = value;
      else errors.push({ parameter: name, reason: 'must be given once' });
      continue;
    }
    given.set(name, value);
    if (modifier !== undefined) modifiers.set(name, modifier);
  }

  const selfParameters: Array<[string, string]> = [];
  for (const [name, value] of given) {
    if (name === '_cursor') continue;
    const modifier = modifiers.get(name);
    selfParameters.push([modifier === undefined ? name : `${name}:${modifier}`, value]);
  }
  if (lastUpdatedExtra !== undefined) selfParameters.push(['_lastUpdated', lastUpdatedExtra]);
  selfParameters.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const value of includes) selfParameters.push(['_include', value]);
  for (const value of revincludes) selfParameters.push(['_revinclude', value]);

  for (const value of includes) {
    const include = INCLUDES.find(
      (candidate) => includeName(candidate) === value && candidate.source === type,
    );
    if (include === undefined)
      errors.push({ parameter: '_include', reason: `${value} is not supported on ${type}` });
    else if (!result.include.includes(include)) result.include.push(include);
  }
  for (const value of revincludes) {
    const include = INCLUDES.find(
      (candidate) => includeName(candidate) === value && candidate.target === type,
    );
    if (include === undefined)
      errors.push({ parameter: '_revinclude', reason: `${value} is not supported on ${type}` });
    else if (!result.revinclude.includes(include)) result.revinclude.push(include);
  }

  const count = given.get('_count');
  if (count !== undefined) {
    const number = /^\d{1,3}$/.test(count) ? Number(count) : Number.NaN;
    if (number >= 1 && number <= LIMIT_MAX) result.count = number;
    else errors.push({ parameter: '_count', reason: `must be an integer from 1 to ${LIMIT_MAX}` });
  }
  const summary = given.get('_summary');
  if (summary !== undefined) {
    if (summary === 'count') result.summaryCount = true;
    else if (summary !== 'false') errors.push({ parameter: '_summary', reason: 'must be count or false' });
  }
  const elements = given.get('_elements');
  if (elements !== undefined) {
    const parsed = parseElements(elements);
    if (parsed.ok) result.elements = parsed.value;
    else errors.push({ parameter: '_elements', reason: parsed.error });
  }
  const sort = given.get('_sort');
  if (sort !== undefined) {
    const reason = sortReason(sort);
    if (reason !== null) errors.push({ parameter: '_sort', reason });
  }
  const format = given.get('_format');
  if (format !== undefined && !['json', 'application/json', 'application/fhir+json'].includes(format)) {
    errors.push({ parameter: '_format', reason: 'must be json or application/fhir+json' });
  }

  // Selecting ids: _id, organization and location name the same records (one id per record).
  const idSets: string[][] = [];
  let selectsIds = false;
  for (const name of ID_PARAMETERS) {
    const value = given.get(name);
    if (value === undefined || !declared.has(name)) continue;
    selectsIds = true;
    const ids = idsOf(name, value, errors);
    if (ids !== null) idSets.push(ids);
  }
  const filterNames = [...given.keys()].filter(
    (name) => declared.has(name) && !ID_PARAMETERS.includes(name as (typeof ID_PARAMETERS)[number]),
  );

  const active = given.get('active');
  let matchesNothing = false;
  if (active !== undefined) {
    if (active === 'false') matchesNothing = true;
    else if (active !== 'true') errors.push({ parameter: 'active', reason: 'must be true or false' });
  }

  if (selectsIds) {
    const others = filterNames.filter((name) => name !== 'active');
    for (const name of others)
      errors.push({ parameter: name, reason: 'cannot be combined with _id, organization or location' });
    if (given.has('_cursor')) errors.push({ parameter: '_cursor', reason: 'an id search has one page' });
    if (result.summaryCount)
      errors.push({ parameter: '_summary', reason: 'count is for searches by filters' });
    if (sort !== undefined) errors.push({ parameter: '_sort', reason: 'an id search comes in id order' });
    if (errors.length > 0) return fail(errors);
    const [first = [], ...rest] = idSets;
    const placeIds = first.filter((id) => rest.every((ids) => ids.includes(id)));
    return ok({
      query: matchesNothing ? { kind: 'nothing' } : { kind: 'ids', placeIds: [...new Set(placeIds)] },
      result,
      selfParameters,
    });
  }

  let specialties: string[] | undefined;
  for (const name of filterNames) {
    const value = given.get(name);
    if (value === undefined || name === 'active') continue;
    if (name === 'name') {
      const text = value.trim();
      const modifier = modifiers.get(name);
      if (text === '') errors.push({ parameter: name, reason: 'must not be empty' });
      // The whole value as given: a padded name is not the published one.
      else if (modifier === 'exact')
        internal.nameExact = { text: value, orLegalName: type !== 'HealthcareService' };
      else if (modifier === 'contains') internal.nameContains = text;
      else internal.nameWords = text;
      continue;
    }
    if (name === 'address') {
      if (addressKey(value) === '') errors.push({ parameter: name, reason: 'must not be empty' });
      else internal.addressPrefix = value;
      continue;
    }
    if (name === 'address-postalcode') {
      if (postalCodeKey(value) === '')
        errors.push({ parameter: name, reason: 'must hold a letter or digit of a postal code' });
      else internal.postalCodePrefix = value;
      continue;
    }
    if (name === 'specialty' || name === 'service-type') {
      const codes = specialtyCodesOf(name, value, options, errors);
      if (codes === null) continue;
      if (specialties !== undefined && !sameCodes(specialties, codes)) {
        errors.push({ parameter: name, reason: 'specialty and service-type must name the same codes' });
        continue;
      }
      specialties = codes;
      continue;
    }
    if (name === '_lastUpdated') {
      const range = lastUpdatedRange([value, ...(lastUpdatedExtra === undefined ? [] : [lastUpdatedExtra])]);
      if (!range.ok) {
        errors.push({ parameter: name, reason: range.error });
        continue;
      }
      if (range.value.since !== undefined) raw.updatedSince = range.value.since;
      if (range.value.before !== undefined)
        internal.updatedBefore = { instant: range.value.before, inclusive: false };
      continue;
    }
    const apiName = API_NAMES[name];
    if (apiName === undefined) continue;
    const translated = apiValue(name, value, errors);
    if (translated === null) continue;
    raw[apiName] = translated.api;
    if (translated.radius !== undefined) raw.radius = translated.radius;
  }
  // One code is the API's own filter (its cursors as they were); several are an OR.
  if (specialties !== undefined) {
    if (specialties.length === 1) raw.specialty = specialties[0] as string;
    else internal.specialtyAny = specialties;
  }
  // _sort names one of the API's orders; without it _text ranks by relevance (near: distance, the API's default).
  if (sort !== undefined) raw.sort = sort;
  else if (given.has('_text')) raw.sort = 'relevance';
  const cursor = given.get('_cursor');
  if (cursor !== undefined) raw.cursor = cursor;
  raw.limit = String(result.summaryCount ? 1 : result.count);
  if (result.summaryCount) raw.count = 'true';
  if (raw.country === undefined && !errors.some((error) => error.parameter === 'address-country')) {
    errors.push({
      parameter: 'address-country',
      reason: 'is required (the dataset, e.g. ES) unless _id, organization or location selects the records',
    });
  }
  if (errors.length > 0) return fail(errors);
  if (matchesNothing) return ok({ query: { kind: 'nothing' }, result, selfParameters });

  const parsed = parseSearchParams(raw);
  if (!parsed.ok)
    return fail(parsed.error.map((error) => ({ ...error, parameter: fhirNameOf(error.parameter, given) })));
  const request: SearchRequest =
    Object.keys(internal).length === 0 ? parsed.value : { ...parsed.value, internal };
  return ok({ query: { kind: 'search', request }, result, selfParameters });
}

/** Why a `_sort` value is refused, or null when it is one served key, ascending (FHIR: `-` descends). */
function sortReason(value: string): string | null {
  if ((SORT_KEYS as readonly string[]).includes(value)) return null;
  const served = SORT_KEYS.join(', ');
  if (value.startsWith('-')) return `descending order is not served; ${served} (ascending) is`;
  if (value.includes(',')) return `takes one key: ${served}`;
  return `only ${served} is served (without _sort: name order, _text best match first, near nearest first)`;
}

/** The codes of a specialty or service-type value: comma-separated, each system|code or code (an OR). */
function specialtyCodesOf(
  name: string,
  value: string,
  options: TranslationOptions,
  errors: ParameterError[],
): string[] | null {
  const system = specialtyCodeSystemUrl(options.siteOrigin);
  const codes: string[] = [];
  for (const entry of value.split(',')) {
    const bar = entry.indexOf('|');
    if (bar !== -1 && entry.slice(0, bar) !== system) {
      errors.push({ parameter: name, reason: `the system must be ${system}` });
      return null;
    }
    const code = entry.slice(bar + 1);
    if (!(SPECIALTY_CODES as readonly string[]).includes(code)) {
      errors.push({
        parameter: name,
        reason: 'must be codes of CodeSystem/specialty (GET /fhir/R4/CodeSystem/specialty lists them)',
      });
      return null;
    }
    if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

function sameCodes(a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean {
  return a.length === b.length && a.every((code) => b.includes(code));
}

function fhirNameOf(apiName: string, given: ReadonlyMap<string, string>): string {
  if (apiName === 'radius') return 'near';
  const names = Object.entries(API_NAMES)
    .filter(([fhirName, name]) => name === apiName && given.has(fhirName))
    .map(([fhirName]) => fhirName);
  return names[0] ?? apiName;
}

type ApiValue = { api: string; radius?: string };

/** One FHIR value as the API parameter's text; null (with the error recorded) when it cannot be. */
function apiValue(name: string, value: string, errors: ParameterError[]): ApiValue | null {
  const refuse = (reason: string) => {
    errors.push({ parameter: name, reason });
    return null;
  };
  switch (name) {
    case 'address-country':
      return { api: value };
    case 'address-city': {
      // The API filters by the city's slug; a name folds to it (case, accents, spaces and punctuation).
      const slug = foldText(value)
        .split(/[^a-z0-9]+/)
        .filter((word) => word !== '')
        .join('-');
      return slug === '' ? refuse('must name a city') : { api: slug };
    }
    case '_text':
      return { api: value };
    case 'near':
      return nearValue(value, refuse);
    case 'new-patients': {
      const bar = value.indexOf('|');
      if (bar !== -1 && value.slice(0, bar) !== PLAN_NET.acceptingPatients)
        return refuse(`the system must be ${PLAN_NET.acceptingPatients}`);
      const code = value.slice(bar + 1);
      if (code === 'newpt') return { api: 'true' };
      if (code === 'nopt') return { api: 'false' };
      return refuse('must be newpt or nopt');
    }
    default:
      return refuse('is not served');
  }
}

function nearValue(value: string, refuse: (reason: string) => null): ApiValue | null {
  const parts = value.split('|');
  if (parts.length < 2 || parts.length > 4) return refuse('must be latitude|longitude|distance|unit');
  const [latitude = '', longitude = '', distance = '', unit = 'km'] = parts;
  const number = /^\d{1,6}(?:\.\d{1,6})?$/;
  let metres = NEAR_DEFAULT_M;
  if (distance !== '') {
    if (!number.test(distance)) return refuse('distance must be a positive number');
    const factor = unit === 'km' || unit === '' ? KM : unit === 'm' ? 1 : undefined;
    if (factor === undefined) return refuse('the unit must be km or m');
    metres = Math.max(1, Math.round(Number(distance) * factor));
  }
  return { api: `${latitude},${longitude}`, radius: String(metres) };
}

type LastUpdatedRange = { since?: string; before?: string };

/**
 * `_lastUpdated` (one value, or two: a range) as the API's `updatedSince` (at or after an instant) and the
 * internal `updatedBefore` (before an instant). A value is a range of time: a date alone is its UTC day,
 * a date-time the millisecond it names (the precision of updatedAt). `ge` is from its start; `gt` and
 * `sa` from its end; `lt` and `eb` up to its start; `le` up to its end; `eq` (or no prefix) within it.
 * At most one lower and one upper bound.
 */
function lastUpdatedRange(values: ReadonlyArray<string>): Result<LastUpdatedRange> {
  const range: LastUpdatedRange = {};
  for (const value of values) {
    const hasPrefix = /^[a-z]{2}/.test(value);
    const prefix = hasPrefix ? value.slice(0, 2) : 'eq';
    const text = hasPrefix ? value.slice(2) : value;
    if (!['ge', 'gt', 'sa', 'le', 'lt', 'eb', 'eq'].includes(prefix))
      return fail(`the prefix ${prefix} is not served (ge, gt, sa, le, lt, eb, eq are)`);
    const isDay = DAY_PATTERN.test(text);
    const start = Date.parse(isDay ? `${text}T00:00:00Z` : text);
    if (!Number.isFinite(start) || (!isDay && !/(?:Z|[+-]\d{2}:\d{2})$/.test(text)))
      return fail('must be a date (YYYY-MM-DD) or a date-time with a time zone');
    const end = start + (isDay ? DAY_MS : 1);
    const lower =
      prefix === 'ge' || prefix === 'eq' ? start : prefix === 'gt' || prefix === 'sa' ? end : null;
    const upper =
      prefix === 'lt' || prefix === 'eb' ? start : prefix === 'le' || prefix === 'eq' ? end : null;
    if (lower !== null) {
      if (range.since !== undefined) return fail('takes at most one lower bound (ge, gt, sa, eq)');
      range.since = new Date(lower).toISOString();
    }
    if (upper !== null) {
      if (range.before !== undefined) return fail('takes at most one upper bound (le, lt, eb, eq)');
      range.before = new Date(upper).toISOString();
    }
  }
  return ok(range);
}

/** The place ids a reference or id parameter names; null (with the error recorded) when one is bad. */
function idsOf(name: string, value: string, errors: ParameterError[]): string[] | null {
  const expectedType = name === 'organization' ? 'Organization/' : name === 'location' ? 'Location/' : '';
  const entries = value.split(',');
  if (entries.length > MAX_BATCH_IDS) {
    errors.push({ parameter: name, reason: `takes at most ${MAX_BATCH_IDS} ids` });
    return null;
  }
  const ids: string[] = [];
  for (const entry of entries) {
    const id =
      expectedType !== '' && entry.startsWith(expectedType) ? entry.slice(expectedType.length) : entry;
    const placeId = placeIdOf(id);
    if (!placeId.ok) {
      errors.push({ parameter: name, reason: placeId.error });
      return null;
    }
    ids.push(placeId.value);
  }
  return ids;
}
