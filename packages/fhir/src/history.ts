import {
  LIMIT_MAX,
  fail,
  ok,
  parseChangesParams,
  type ChangesParams,
  type ParameterError,
  type Result,
} from '@directory/domain';
import type { DirectoryResource, DirectoryResourceType } from './fhir-resources.js';
import { resourceOf, type MappingOptions } from './record-resources.js';
import { fhirIdOf } from './resource-ids.js';
import { COUNT_DEFAULT, HISTORY_PARAMETERS } from './search-declarations.js';
import type { FhirParameters } from './search-translation.js';
import type { ServedRecord } from './served-record.js';

/**
 * history-type and history-instance (IHE mCSD ITI-91) as the API's changes feed: `GET
 * /fhir/R4/{type}/_history` is `GET /api/v1/changes` of one dataset (its snapshot start, its instant
 * start for `_since`, its signed cursors carried by `next` links), each change an entry of a `history`
 * Bundle: PUT with the record's current resource while it is served, DELETE (no resource) once it is not.
 *
 * History is not kept: an entry is the record's current version, and a record changed several times
 * between two reads comes once, at its newest state (as in the feed). The instance history answers the
 * current version only.
 */

export type HistoryRequest = {
  /** What the feed is asked: the API's own parameters, parsed by its own parser. */
  changes: ChangesParams;
  /** The parameters understood, without `_cursor`: what the self and next links repeat. */
  selfParameters: Array<[string, string]>;
};

// Linear: no nested or adjacent unbounded repeats. FHIR's instant, as history and $export take `_since`.
export const INSTANT_PATTERN =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
export const SINCE_REASON = 'must be an instant with its offset, e.g. 2026-11-01T00:00:00Z';

/** The API's `since` cursor of the changes feed, as `_cursor` of the history's links. */
const API_NAMES: Readonly<Record<string, string>> = {
  'address-country': 'country',
  _count: 'limit',
  _cursor: 'since',
  _since: 'since',
};

/**
 * A history-type request's parameters as the changes feed's (`parseChangesParams`): `address-country`
 * the dataset (required), `_since` an instant with its offset (the feed's instant start), `_count` the
 * page size (1 to 100, default 20), `_cursor` the feed's cursor a `next` link carries. An unknown
 * parameter is ignored (a 400 when strict); a repeated one, a modifier or a bad value is a 400.
 */
export function translateHistory(
  parameters: FhirParameters,
  options: { strict: boolean },
): Result<HistoryRequest, ParameterError[]> {
  const errors: ParameterError[] = [];
  const given = new Map<string, string>();
  const known = new Set<string>([...HISTORY_PARAMETERS.map((parameter) => parameter.name), '_cursor']);
  for (const [name, value] of parameters) {
    if (!known.has(name)) {
      if (name.includes(':') && known.has(name.split(':', 1)[0] ?? '')) {
        errors.push({ parameter: name, reason: 'takes no modifier' });
      } else if (options.strict) {
        errors.push({ parameter: name, reason: 'is not a parameter this server supports' });
      }
      continue;
    }
    if (given.has(name)) errors.push({ parameter: name, reason: 'must be given once' });
    else given.set(name, value);
  }
  const { count } = checkCountAndSince(given, errors);
  const cursor = given.get('_cursor');
  if (cursor !== undefined && cursor.includes(':'))
    errors.push({ parameter: '_cursor', reason: 'must be the cursor of a next link, exactly as given' });
  if (!given.has('address-country'))
    errors.push({ parameter: 'address-country', reason: 'is required (the dataset, e.g. ES)' });
  if (errors.length > 0) return fail(errors);

  const raw: Record<string, string> = { limit: String(count ?? COUNT_DEFAULT) };
  for (const [name, value] of given) {
    const apiName = API_NAMES[name];
    // A cursor carries on from where the first page started: it takes the place of _since.
    if (apiName === undefined || (name === '_since' && cursor !== undefined)) continue;
    raw[apiName] = value;
  }
  const parsed = parseChangesParams(raw);
  if (!parsed.ok) {
    return fail(
      parsed.error.map((error) => ({
        ...error,
        parameter:
          error.parameter === 'since'
            ? cursor === undefined
              ? '_since'
              : '_cursor'
            : (Object.entries(API_NAMES).find(([, api]) => api === error.parameter)?.[0] ?? error.parameter),
      })),
    );
  }
  const selfParameters: Array<[string, string]> = [...given]
    .filter(([name]) => name !== '_cursor')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return ok({ changes: parsed.value, selfParameters });
}

/**
 * `_count` (1 to LIMIT_MAX) and `_since` (FHIR's instant: a time and its offset, which is also how the
 * feed tells it from a cursor) of both history interactions; a bad one is added to `errors`.
 */
function checkCountAndSince(
  given: ReadonlyMap<string, string>,
  errors: ParameterError[],
): { count: string | undefined; at: number | undefined } {
  const count = given.get('_count');
  if (count !== undefined && !(/^\d{1,3}$/.test(count) && Number(count) >= 1 && Number(count) <= LIMIT_MAX))
    errors.push({ parameter: '_count', reason: `must be an integer from 1 to ${LIMIT_MAX}` });
  const since = given.get('_since');
  const at = since === undefined ? undefined : Date.parse(since);
  if (since !== undefined && (!INSTANT_PATTERN.test(since) || !Number.isFinite(at)))
    errors.push({ parameter: '_since', reason: SINCE_REASON });
  return { count, at };
}

export type InstanceHistoryRequest = {
  /** `_since`: leave the current version out when it was last updated before this instant. */
  since?: Date;
  selfParameters: Array<[string, string]>;
};

/** The parameters of history-instance: `_since` and `_count` (one version, so one page). */
export function translateInstanceHistory(
  parameters: FhirParameters,
  options: { strict: boolean },
): Result<InstanceHistoryRequest, ParameterError[]> {
  const errors: ParameterError[] = [];
  const given = new Map<string, string>();
  for (const [name, value] of parameters) {
    if (name !== '_since' && name !== '_count') {
      if (options.strict) errors.push({ parameter: name, reason: 'is not a parameter this server supports' });
      continue;
    }
    if (given.has(name)) errors.push({ parameter: name, reason: 'must be given once' });
    else given.set(name, value);
  }
  const { at } = checkCountAndSince(given, errors);
  if (errors.length > 0) return fail(errors);
  const selfParameters: Array<[string, string]> = [...given].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return ok({ ...(at === undefined ? {} : { since: new Date(at) }), selfParameters });
}

/** One change of a history page: the record's id and its current state (null once it is not served). */
export type HistoryChange = { placeId: string; record: ServedRecord | null; changedAt?: string };

export type HistoryEntry = {
  fullUrl: string;
  resource?: DirectoryResource;
  request: { method: 'PUT' | 'DELETE'; url: string };
  response: { status: string; etag?: string; lastModified?: string };
};

export type HistoryBundle = {
  resourceType: 'Bundle';
  type: 'history';
  total?: number;
  link: Array<{ relation: 'self' | 'next'; url: string }>;
  entry?: HistoryEntry[];
};

export type HistoryBundleInput = {
  type: DirectoryResourceType;
  baseUrl: string;
  /** The instance's id for history-instance; absent for history-type. */
  instance?: string;
  changes: ReadonlyArray<HistoryChange>;
  selfParameters: ReadonlyArray<readonly [string, string]>;
  /** The cursor this page was read from, if any (the self link repeats it). */
  cursor?: string;
  /**
   * The feed's cursor after this page, when the page held changes: the `next` link. A page without
   * changes has none; its self link is where to ask again later for what changes meanwhile.
   */
  nextCursor: string | null;
  total?: number;
};

/** A page of the feed as a FHIR `history` Bundle, newest state of each changed record in feed order. */
export function historyBundle(input: HistoryBundleInput, options: MappingOptions): HistoryBundle {
  const { type, baseUrl } = input;
  const entries: HistoryEntry[] = [];
  for (const change of input.changes) {
    const entry = historyEntryOf(type, baseUrl, change, options);
    if (entry !== null) entries.push(entry);
  }
  const path = input.instance === undefined ? `${type}/_history` : `${type}/${input.instance}/_history`;
  const link: HistoryBundle['link'] = [
    { relation: 'self', url: urlOf(baseUrl, path, input.selfParameters, input.cursor) },
  ];
  if (input.nextCursor !== null)
    link.push({ relation: 'next', url: urlOf(baseUrl, path, input.selfParameters, input.nextCursor) });
  return {
    resourceType: 'Bundle',
    type: 'history',
    ...(input.total === undefined ? {} : { total: input.total }),
    link,
    ...(entries.length === 0 ? {} : { entry: entries }),
  };
}

/**
 * PUT with the resource while the record is served (its version as the ETag, its lastUpdated), DELETE
 * without content once it is not. Null for a record with no FHIR id (longer than FHIR allows).
 */
export function historyEntryOf(
  type: DirectoryResourceType,
  baseUrl: string,
  change: HistoryChange,
  options: MappingOptions,
): HistoryEntry | null {
  const id = fhirIdOf(change.placeId);
  if (id === null) return null;
  const url = `${type}/${id}`;
  const resource = change.record === null ? null : resourceOf(type, change.record, options);
  if (resource === null) {
    return {
      fullUrl: `${baseUrl}/${url}`,
      request: { method: 'DELETE', url },
      response: {
        status: '204 No Content',
        ...(change.changedAt === undefined ? {} : { lastModified: change.changedAt }),
      },
    };
  }
  return {
    fullUrl: `${baseUrl}/${url}`,
    resource,
    request: { method: 'PUT', url },
    response: {
      status: '200 OK',
      etag: `W/"${resource.meta.versionId ?? ''}"`,
      ...(resource.meta.lastUpdated === undefined ? {} : { lastModified: resource.meta.lastUpdated }),
    },
  };
}

function urlOf(
  baseUrl: string,
  path: string,
  parameters: ReadonlyArray<readonly [string, string]>,
  cursor?: string,
): string {
  const query = new URLSearchParams(parameters.map(([name, value]): [string, string] => [name, value]));
  if (cursor !== undefined) query.append('_cursor', cursor);
  const text = query.toString();
  return `${baseUrl}/${path}${text === '' ? '' : `?${text}`}`;
}
