import { z } from 'zod';
import { limitFromQuery, pageSize, parseParameters, type ParameterError } from '../query-parameters.js';
import { fieldsParameter, langParameter, recordShapeOf, type RecordShape } from '../record-shape.js';
import { fail, ok, type Result } from '../result.js';
import { idsParameter } from './doctor-batch.js';
import { CURSOR_MAX_LENGTH, LIMIT_MAX } from './page-bounds.js';
import {
  API_1_2_FILTER_NAMES,
  FILTER_NAMES,
  filterShape,
  filtersOf,
  type SearchFilters,
} from './search-filters.js';

/**
 * Validation of the search inputs (docs/api.md, `GET /api/v1/doctors` — search), shared by
 * `GET /api/v1/doctors` (raw query strings) and the MCP tool `search_doctors` (typed JSON). Both report
 * every bad parameter at once.
 *
 * Decisions the contract leaves open:
 * - `q` is trimmed; a `q` that is empty after trimming means "no text filter" (a search box submitted
 *   empty), not an error. The 100-character limit counts Unicode code points of the trimmed text.
 * - An empty `cursor` is an error, not "first page": a client turning a null `nextCursor` into `''`
 *   would otherwise loop over page one forever.
 * - Parameter names are case-sensitive; values are too, except `country`.
 * - A key-like parameter (api_key, apikey, key, x-api-key, access_token, token, authorization, in any
 *   case and with `-`/`_` ignored, or any name containing a `dk_live_` secret) is reported with
 *   `KEY_IN_QUERY_REASON`. No message ever contains a parameter value, and a name that embeds a secret is
 *   shown as `[redacted]`.
 * - `radius` without `near` is refused (it would silently do nothing). The unknown-parameter reason
 *   lists the parameters added to `/api/v1` later (`near`, `radius`, `openAt`, `openNow`, `fields`,
 *   `lang`, `ids`) only when the request uses one of them: a request without them is answered exactly
 *   as before they existed, errors included (docs/api.md, Compatibility).
 * - `openNow` takes only `true` (see the filter table); `openAt` needs an offset or Z, since a wall-clock
 *   time without one names no instant.
 * - `ids` turns the request into a batch get (doctor-batch.ts): it takes only `fields` and
 *   `lang` besides, and `country` is then not required; a search filter, `limit` or `cursor` next to it
 *   is refused by name.
 */

const LIMIT_MIN = 1;
const DEFAULT_LIMIT = 25;

export type SearchParams = SearchFilters & { limit: number; cursor?: string };
/** A search as requested: what selects and pages the records, and how they are shaped. */
export type SearchRequest = SearchParams & RecordShape;
/** `GET /api/v1/doctors`: a search, or (with `ids`) a batch get. */
export type DoctorsQuery =
  { kind: 'search'; request: SearchRequest } | { kind: 'batch'; ids: string[]; shape: RecordShape };

/** Every parameter a search takes: the filters, then paging. */
export const KNOWN_PARAMETERS = [...FILTER_NAMES, 'limit', 'cursor'] as const;
/** How records are shaped (record-shape.ts); search, get and batch take them. */
export const RECORD_SHAPE_PARAMETERS = ['fields', 'lang'] as const;
/** Every parameter `GET /api/v1/doctors` takes. */
const QUERY_PARAMETERS = [...KNOWN_PARAMETERS, ...RECORD_SHAPE_PARAMETERS, 'ids'];
const API_1_2_PARAMETERS: ReadonlyArray<string> = [
  ...API_1_2_FILTER_NAMES,
  ...RECORD_SHAPE_PARAMETERS,
  'ids',
];
/** The first version's parameters: what the unknown-parameter reason lists for a request using no later one. */
const API_1_1_PARAMETERS = QUERY_PARAMETERS.filter((name) => !API_1_2_PARAMETERS.includes(name));
/** What cannot be combined with `ids`: everything that selects or pages the records of a search. */
const SEARCH_ONLY_PARAMETERS: ReadonlyArray<string> = KNOWN_PARAMETERS;

export const IDS_CONFLICT_REASON =
  'cannot be combined with ids: a batch get takes only ids, fields and lang; drop it, or drop ids to search';
export const RADIUS_WITHOUT_NEAR_REASON =
  'only applies together with near; add near=latitude,longitude or drop radius';
const PAGE_SIZE = { max: LIMIT_MAX, default: DEFAULT_LIMIT };

// ---- paging schemas (the filters' are in the filter table; every description ends up in the OpenAPI
// document and the MCP tool) ----

const limitDescription = `Records per page, ${LIMIT_MIN} to ${LIMIT_MAX}.`;
const cursorDescription =
  'The opaque page.nextCursor of the preceding response; send it with the same filters to get the next page.';

const cursor = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty; omit cursor to start at the first page' })
  .max(CURSOR_MAX_LENGTH, { error: `must be at most ${CURSOR_MAX_LENGTH} characters` })
  .optional()
  .describe(cursorDescription);

/** `GET /api/v1/doctors` query string of a search. Use `parseSearchParams` for the full rules (unknown, repeated, keys). */
export const searchParamsSchema = z.object({
  ...filterShape('fromQuery'),
  limit: limitFromQuery(PAGE_SIZE, limitDescription),
  cursor,
  fields: fieldsParameter,
  lang: langParameter,
});

/** `GET /api/v1/doctors?ids=…` query string of a batch get. */
const batchParamsSchema = z.object({
  ids: idsParameter.unwrap(),
  fields: fieldsParameter,
  lang: langParameter,
});

/** Arguments of the MCP tool `search_doctors`: the same rules over typed JSON values. */
export const searchToolInputSchema = z.object({
  ...filterShape('fromTool'),
  limit: pageSize(PAGE_SIZE).describe(limitDescription),
  cursor,
});

/** Validates the query string of `GET /api/v1/doctors`: a search, or with `ids` a batch get. */
export function parseDoctorsQuery(raw: Record<string, unknown>): Result<DoctorsQuery, ParameterError[]> {
  if (raw.ids === undefined) {
    const search = parseSearchParams(raw);
    return search.ok ? ok({ kind: 'search', request: search.value }) : search;
  }
  // Refused by name, and left out of the batch parameters (which would call them unknown).
  const conflicts = Object.keys(raw).filter((name) => SEARCH_ONLY_PARAMETERS.includes(name));
  const batchRaw = Object.fromEntries(Object.entries(raw).filter(([name]) => !conflicts.includes(name)));
  const parsed = parseParameters(batchParamsSchema, batchRaw, 'query', QUERY_PARAMETERS);
  const errors = [
    ...(parsed.ok ? [] : parsed.error),
    ...conflicts.map((parameter) => ({ parameter, reason: IDS_CONFLICT_REASON })),
  ];
  if (!parsed.ok || errors.length > 0) return fail(errors);
  const { ids, fields, lang } = parsed.value;
  return ok({ kind: 'batch', ids, shape: recordShapeOf(fields, lang) });
}

/** Validates a search's query string (values are strings, or arrays when a parameter was repeated). */
export function parseSearchParams(raw: Record<string, unknown>): Result<SearchRequest, ParameterError[]> {
  return parseWith(parseParameters(searchParamsSchema, raw, 'query', listedFor(raw, 'query')), raw, 'query');
}

/**
 * Validates MCP tool arguments. `null` counts as absent: AI clients often send null for optional
 * arguments they mean to omit.
 */
export function parseSearchToolInput(input: unknown): Result<SearchParams, ParameterError[]> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail([{ parameter: 'arguments', reason: 'must be an object' }]);
  }
  const raw = input as Record<string, unknown>;
  return parseWith(parseParameters(searchToolInputSchema, raw, 'tool', listedFor(raw, 'tool')), raw, 'tool');
}

function parseWith(
  parsed: Result<
    z.output<typeof searchParamsSchema> | z.output<typeof searchToolInputSchema>,
    ParameterError[]
  >,
  raw: Record<string, unknown>,
  source: 'query' | 'tool',
): Result<SearchRequest, ParameterError[]> {
  // Checked on the raw input, so it is reported along with every other bad parameter.
  const radiusAlone = isGiven(raw.radius, source) && !isGiven(raw.near, source);
  const radiusError = { parameter: 'radius', reason: RADIUS_WITHOUT_NEAR_REASON };
  if (!parsed.ok) {
    if (!radiusAlone || parsed.error.some((error) => error.parameter === 'radius')) return parsed;
    return fail([...parsed.error, radiusError]);
  }
  if (radiusAlone) return fail([radiusError]);
  const { limit, cursor } = parsed.value;
  // Only the query string takes them (the tool's values have neither).
  const { fields, lang } = parsed.value as Partial<z.output<typeof searchParamsSchema>>;
  return ok({
    ...filtersOf(parsed.value),
    limit,
    ...(cursor === undefined ? {} : { cursor }),
    ...recordShapeOf(fields, lang),
  });
}

function isGiven(value: unknown, source: 'query' | 'tool'): boolean {
  return value !== undefined && !(source === 'tool' && value === null);
}

/** The first version's parameter list, unless the request uses a later one (then all of them). */
function listedFor(raw: Record<string, unknown>, source: 'query' | 'tool'): ReadonlyArray<string> {
  if (source === 'tool') {
    const toolParameters = [...KNOWN_PARAMETERS];
    return API_1_2_FILTER_NAMES.some((name) => isGiven(raw[name], source))
      ? toolParameters
      : toolParameters.filter((name) => !API_1_2_PARAMETERS.includes(name));
  }
  return API_1_2_PARAMETERS.some((name) => isGiven(raw[name], source))
    ? QUERY_PARAMETERS
    : API_1_1_PARAMETERS;
}
