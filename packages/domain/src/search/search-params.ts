import { z } from 'zod';
import {
  limitFromQuery,
  pageSize,
  parseParameters,
  type ParameterError,
} from '../requests/query-parameters.js';
import { fieldsParameter, langParameter, recordShapeOf, type RecordShape } from '../requests/record-shape.js';
import { fail, ok, type Result } from '../shared/result.js';
import { idsParameter } from './doctor-batch.js';
import { CURSOR_MAX_LENGTH, LIMIT_MAX } from '../requests/page-bounds.js';
import {
  FILTER_NAMES,
  filterAddedIn,
  filterShape,
  filtersOf,
  type FilterName,
  type LaterVersion,
  type SearchFilters,
} from './search-filters.js';
import { SORT_ORDERS, TOTAL_EXACT_UP_TO, type SortOrder } from './search-order.js';
import {
  FACET_LIMIT_DEFAULT,
  FACET_LIMIT_WITHOUT_FACETS_REASON,
  facetLimitFromQuery,
  facetLimitFromTool,
  facetsParameter,
  type FacetRequest,
} from './facets.js';

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
 *   case and with `-`/`_` ignored, or any name containing a `dk_live_` or `dk_test_` secret) is reported with
 *   `KEY_IN_QUERY_REASON`. No message ever contains a parameter value, and a name that embeds a secret is
 *   shown as `[redacted]`.
 * - `radius` without `near` is refused (it would silently do nothing). The unknown-parameter reason
 *   lists the parameters added to `/api/v1` later (`near`, `radius`, `openAt`, `openNow`, `fields`,
 *   `lang`, `ids`) only when the request uses one of them: a request without them is answered exactly
 *   as before they existed, errors included (docs/api.md, Compatibility).
 * - `openNow` takes only `true` (see the filter table); `openAt` needs an offset or Z, since a wall-clock
 *   time without one names no instant.
 * - `ids` (deprecated since API 1.3, when batch get became `GET /api/v1/doctors:batchGet`, answered by
 *   `parseBatchGetQuery`) turns the request into a batch get (doctor-batch.ts): it takes only `fields` and
 *   `lang` besides, and `country` is then not required; a search filter, `limit` or `cursor` next to it
 *   is refused by name.
 * - The unknown-parameter reason lists the parameters of the newest minor version the request uses a
 *   parameter of: 1.1's alone, 1.1's and 1.2's, or all. So a 1.2 request's errors read as before 1.3.
 * - `sort=distance` without `near` is refused like `radius` alone (there is no point to measure from).
 * - `facetLimit` without `facets` is refused like `radius` alone (it would silently do nothing).
 */

const LIMIT_MIN = 1;
const DEFAULT_LIMIT = 25;

/**
 * What pages and orders a search besides its filters: `sort` as given (absent: the default order, see
 * search-order.ts), `count` and `facets` (facets.ts) only when asked.
 */
export type SearchParams = SearchFilters & {
  limit: number;
  cursor?: string;
  sort?: SortOrder;
  count?: true;
  facets?: FacetRequest;
  /** Only when asked (search-suggestions.ts); the MCP tool asks unless told not to. */
  suggestions?: true;
};
/** A search as requested: what selects and pages the records, and how they are shaped. */
export type SearchRequest = SearchParams & RecordShape;
/** `GET /api/v1/doctors`: a search, or (with `ids`) a batch get. */
export type DoctorsQuery =
  { kind: 'search'; request: SearchRequest } | { kind: 'batch'; ids: string[]; shape: RecordShape };
/** `GET /api/v1/doctors:batchGet`: the batch get as an operation of its own. */
export type BatchGetQuery = { ids: string[]; shape: RecordShape };

/** Every parameter a search takes: the filters, then paging and ordering. */
export const KNOWN_PARAMETERS = [
  ...FILTER_NAMES,
  'limit',
  'cursor',
  'sort',
  'count',
  'facets',
  'facetLimit',
  'suggestions',
] as const;
/** How records are shaped (record-shape.ts); search, get and batch take them. */
export const RECORD_SHAPE_PARAMETERS = ['fields', 'lang'] as const;
/** Every parameter `GET /api/v1/doctors` takes. */
const QUERY_PARAMETERS = [...KNOWN_PARAMETERS, ...RECORD_SHAPE_PARAMETERS, 'ids'];
/** The minor version that added each parameter that is not a filter (the filters say so in their table). */
const NON_FILTER_ADDED_IN: Record<string, LaterVersion> = {
  fields: '1.2',
  lang: '1.2',
  ids: '1.2',
  sort: '1.3',
  count: '1.3',
  facets: '1.4',
  facetLimit: '1.4',
  suggestions: '1.4',
};
/** What cannot be combined with `ids`: everything that selects or pages the records of a search. */
const SEARCH_ONLY_PARAMETERS: ReadonlyArray<string> = KNOWN_PARAMETERS;

export const IDS_CONFLICT_REASON =
  'cannot be combined with ids: a batch get takes only ids, fields and lang; drop it, or drop ids to search';
export const RADIUS_WITHOUT_NEAR_REASON =
  'only applies together with near; add near=latitude,longitude or drop radius';
export const DISTANCE_WITHOUT_NEAR_REASON =
  'distance needs near to measure from; add near=latitude,longitude or choose sort=relevance or sort=name';
const PAGE_SIZE = { max: LIMIT_MAX, default: DEFAULT_LIMIT };

// ---- paging schemas (the filters' are in the filter table; every description ends up in the OpenAPI
// document and the MCP tool) ----

const limitDescription = `Records per page, ${LIMIT_MIN} to ${LIMIT_MAX}.`;
const cursorDescription =
  'The opaque page.nextCursor of the preceding response; send it with the same filters to get the next page.';

const SORT_REASON = `must be one of ${SORT_ORDERS.join(', ')}`;
const sort = z
  .enum(SORT_ORDERS, { error: SORT_REASON })
  .optional()
  .describe(
    'API 1.3. The order of the records: `relevance` (best match first, see "Ranking" in the API guide), `name` (folded name, then id) or `distance` (nearest first, then id; needs `near`). Default: `distance` with `near`, else `name`. A cursor is bound to the order it was issued for.',
  );

const COUNT_REASON = 'must be true or false';
const countDescription = `API 1.3. true adds \`page.total\`, how many records match, and \`page.totalExact\`: exact up to ${TOTAL_EXACT_UP_TO}; past that \`total\` is ${TOTAL_EXACT_UP_TO}, a lower bound, with \`totalExact: false\`.`;
const countFromTool = z.boolean({ error: COUNT_REASON }).optional();
const countFromQuery = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  countFromTool,
);

const suggestionsDescription =
  'API 1.4. true adds `suggestions`: on an empty first page, up to three changes of one parameter that find records (a corrected `q`, a wider `radius`, a nearby `city`), each with how many; otherwise an empty list. See "Zero results" in the API guide.';
const suggestionsFromTool = z.boolean({ error: 'must be true or false' }).optional();
const suggestionsFromQuery = z
  .preprocess((value) => (value === 'true' ? true : value === 'false' ? false : value), suggestionsFromTool)
  .describe(suggestionsDescription);

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
  sort,
  count: countFromQuery.describe(countDescription),
  facets: facetsParameter,
  facetLimit: facetLimitFromQuery,
  suggestions: suggestionsFromQuery,
  fields: fieldsParameter,
  lang: langParameter,
});

/** The query string of a batch get: `GET /api/v1/doctors:batchGet`, or `GET /api/v1/doctors?ids=…`. */
export const batchParamsSchema = z.object({
  ids: idsParameter.unwrap(),
  fields: fieldsParameter,
  lang: langParameter,
});

/** Arguments of the MCP tool `search_doctors`: the same rules over typed JSON values. */
export const searchToolInputSchema = z.object({
  ...filterShape('fromTool'),
  limit: pageSize(PAGE_SIZE).describe(limitDescription),
  cursor,
  sort,
  count: countFromTool.describe(countDescription),
  facets: facetsParameter,
  facetLimit: facetLimitFromTool,
  suggestions: suggestionsFromTool.describe(
    `${suggestionsDescription} Default true here (false leaves them out): an empty answer says what to try next.`,
  ),
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
  const parsed = parseParameters(batchParamsSchema, batchRaw, 'query', listedFor(raw, 'query'));
  const errors = [
    ...(parsed.ok ? [] : parsed.error),
    ...conflicts.map((parameter) => ({ parameter, reason: IDS_CONFLICT_REASON })),
  ];
  if (!parsed.ok || errors.length > 0) return fail(errors);
  const { ids, fields, lang } = parsed.value;
  return ok({ kind: 'batch', ids, shape: recordShapeOf(fields, lang) });
}

/**
 * Validates the query string of `GET /api/v1/doctors:batchGet` (API 1.3): `ids` is required, `fields`
 * and `lang` optional, and any other name is unknown (a search filter included: this operation only
 * gets records). The answer is the one `GET /api/v1/doctors?ids=…` gives for the same ids.
 */
export function parseBatchGetQuery(raw: Record<string, unknown>): Result<BatchGetQuery, ParameterError[]> {
  const parsed = parseParameters(batchParamsSchema, raw, 'query');
  if (!parsed.ok) return parsed;
  const { ids, fields, lang } = parsed.value;
  return ok({ ids, shape: recordShapeOf(fields, lang) });
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
  // Checked on the raw input, so they are reported along with every other bad parameter.
  const withoutNear = [...withoutNearErrors(raw, source), ...withoutFacetsErrors(raw, source)];
  if (!parsed.ok) {
    const named = new Set(parsed.error.map((error) => error.parameter));
    const more = withoutNear.filter((error) => !named.has(error.parameter));
    return more.length === 0 ? parsed : fail([...parsed.error, ...more]);
  }
  if (withoutNear.length > 0) return fail(withoutNear);
  const { limit, cursor, sort, count, facets, facetLimit, suggestions } = parsed.value;
  // Only the query string takes them (the tool's values have neither).
  const { fields, lang } = parsed.value as Partial<z.output<typeof searchParamsSchema>>;
  // The tool asks for suggestions unless told not to; the query string only when asked.
  const suggest = source === 'tool' ? suggestions !== false : suggestions === true;
  return ok({
    ...filtersOf(parsed.value),
    limit,
    ...(cursor === undefined ? {} : { cursor }),
    ...(sort === undefined ? {} : { sort }),
    ...(count === true ? { count } : {}),
    ...(facets === undefined ? {} : { facets: { names: facets, limit: facetLimit ?? FACET_LIMIT_DEFAULT } }),
    ...(suggest ? { suggestions: true as const } : {}),
    ...recordShapeOf(fields, lang),
  });
}

/** `radius` and `sort=distance` need `near`: each without it is an error of its own. */
function withoutNearErrors(raw: Record<string, unknown>, source: 'query' | 'tool'): ParameterError[] {
  if (isGiven(raw.near, source)) return [];
  const errors: ParameterError[] = [];
  if (isGiven(raw.radius, source)) errors.push({ parameter: 'radius', reason: RADIUS_WITHOUT_NEAR_REASON });
  if (raw.sort === 'distance') errors.push({ parameter: 'sort', reason: DISTANCE_WITHOUT_NEAR_REASON });
  return errors;
}

/** `facetLimit` needs `facets`. */
function withoutFacetsErrors(raw: Record<string, unknown>, source: 'query' | 'tool'): ParameterError[] {
  if (isGiven(raw.facets, source) || !isGiven(raw.facetLimit, source)) return [];
  return [{ parameter: 'facetLimit', reason: FACET_LIMIT_WITHOUT_FACETS_REASON }];
}

function isGiven(value: unknown, source: 'query' | 'tool'): boolean {
  return value !== undefined && !(source === 'tool' && value === null);
}

/** The minor version that added a parameter of `GET /api/v1/doctors` (or of the search tool). */
function addedIn(name: string): '1.1' | LaterVersion {
  if ((FILTER_NAMES as ReadonlyArray<string>).includes(name)) return filterAddedIn(name as FilterName);
  return NON_FILTER_ADDED_IN[name] ?? '1.1';
}

/** The parameters up to the newest minor version the request uses a parameter of (see the rules above). */
function listedFor(raw: Record<string, unknown>, source: 'query' | 'tool'): ReadonlyArray<string> {
  const all: ReadonlyArray<string> = source === 'tool' ? KNOWN_PARAMETERS : QUERY_PARAMETERS;
  const used = all.filter((name) => isGiven(raw[name], source)).map(addedIn);
  // Versions compare as text while the minor stays one digit.
  const newest = used.reduce<string>((latest, version) => (version > latest ? version : latest), '1.1');
  return all.filter((name) => addedIn(name) <= newest);
}
