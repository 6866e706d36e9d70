import { z } from 'zod';
import { API_KEY_PREFIX } from './api-key.js';
import { COUNTRY_CODES, SLUG_PATTERN, type CountryCode } from './events.js';

/**
 * Validation of the search inputs (SPEC §4.2), shared by `GET /api/v1/doctors` (raw query strings) and
 * the MCP tool `search_doctors` (typed JSON). Both report every bad parameter at once.
 *
 * Decisions the contract leaves open:
 * - `q` is trimmed; a `q` that is empty after trimming means "no text filter" (a search box submitted
 *   empty), not an error. The 100-character limit counts Unicode code points of the trimmed text.
 * - An empty `cursor` is an error, not "first page": a client turning a null `nextCursor` into `''`
 *   would otherwise loop over page one forever.
 * - Parameter names are case-sensitive; values are too, except `country`.
 * - A key-like parameter (api_key, apikey, key, x-api-key, access_token, token, authorization, in any
 *   case and with `-`/`_` ignored, or any name containing a `dk_live_` secret) is reported with code
 *   `key_in_query`. No message ever contains a parameter value, and a name that embeds a secret is
 *   shown as `[redacted]`.
 */

export const Q_MAX_LENGTH = 100;
export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const DEFAULT_LIMIT = 25;
export const CURSOR_MAX_LENGTH = 2048;

export type SearchFilters = {
  country: CountryCode;
  city?: string;
  q?: string;
  whatsapp?: boolean;
  verified?: boolean;
};

export type SearchParams = SearchFilters & { limit: number; cursor?: string };

export type ParameterErrorCode =
  'key_in_query' | 'unknown_parameter' | 'repeated_parameter' | 'missing_parameter' | 'invalid_value';

export type ParameterError = { parameter: string; reason: string; code: ParameterErrorCode };

export type SearchParamsResult =
  { ok: true; value: SearchParams } | { ok: false; errors: ParameterError[]; keyInQuery: boolean };

const KNOWN_PARAMETERS = ['country', 'city', 'q', 'whatsapp', 'verified', 'limit', 'cursor'] as const;
type KnownParameter = (typeof KNOWN_PARAMETERS)[number];

export const KEY_IN_QUERY_REASON =
  'API keys must never be sent in the URL; send the key in the X-API-Key header (or Authorization: Bearer)';
const COUNTRY_REASON = `must be one of ${COUNTRY_CODES.join(', ')}`;
const BOOLEAN_REASON = 'must be true or false';
const LIMIT_REASON = `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}`;

// ---- field schemas (each field's description ends up in the OpenAPI document and the MCP tool) ----

const countryDescription =
  'Dataset code, case-insensitive: de, es, fr, gb, it, mx or pt. de, es, it and pt have live data; fr, gb and mx are accepted and return an empty page.';
const countryError = (issue: { input?: unknown }) =>
  issue.input === undefined ? `is required; ${COUNTRY_REASON}` : COUNTRY_REASON;

// Query strings: the pattern spells out case-insensitivity so the OpenAPI document states the rule
// exactly (an enum would wrongly declare "DE" invalid); the value is normalized to lowercase.
const CASE_INSENSITIVE_COUNTRY = new RegExp(
  `^(?:${COUNTRY_CODES.map((code) => [...code].map((c) => `[${c}${c.toUpperCase()}]`).join('')).join('|')})$`,
);
const countryFromQuery = z
  .string({ error: countryError })
  .regex(CASE_INSENSITIVE_COUNTRY, { error: COUNTRY_REASON })
  .transform((value) => value.toLowerCase() as CountryCode)
  .describe(countryDescription);

// Tool arguments: an enum guides AI clients better; other casings are still accepted.
const countryFromTool = z
  .preprocess(
    (value) => (typeof value === 'string' ? value.toLowerCase() : value),
    z.enum(COUNTRY_CODES, { error: countryError }),
  )
  .describe(countryDescription);

const city = z
  .string({ error: 'must be a string' })
  .regex(SLUG_PATTERN, {
    error: 'must be a lowercase slug such as "san-sebastian" (a-z, 0-9, single hyphens)',
  })
  .optional()
  .describe('City slug, as in profile URLs, e.g. "berlin" or "san-sebastian".');

const q = z
  .preprocess(
    (value) => (typeof value === 'string' ? value.trim() || undefined : value),
    z
      .string({ error: 'must be a string' })
      .refine(withinCodePoints(Q_MAX_LENGTH), { error: `must be at most ${Q_MAX_LENGTH} characters` })
      .meta({ maxLength: Q_MAX_LENGTH })
      .optional(),
  )
  .describe(
    'Literal text, case- and accent-insensitive: every word must occur in the name, legal name, city, primary type or specialties; the last word may be a prefix. No query syntax is interpreted. Blank means no text filter.',
  );

const whatsappDescription =
  'true selects records whose primary number appears WhatsApp-reachable (a technical signal, never consent); false the others.';
const verifiedDescription = 'true selects verified listings, false unverified ones.';
const limitDescription = `Records per page, ${LIMIT_MIN} to ${LIMIT_MAX}.`;
const cursorDescription =
  'The opaque page.nextCursor of the preceding response; send it with the same filters to get the next page.';

const cursor = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty; omit cursor to start at the first page' })
  .max(CURSOR_MAX_LENGTH, { error: `must be at most ${CURSOR_MAX_LENGTH} characters` })
  .optional()
  .describe(cursorDescription);

const limitNumber = z
  .number({ error: LIMIT_REASON })
  .int({ error: LIMIT_REASON })
  .min(LIMIT_MIN, { error: LIMIT_REASON })
  .max(LIMIT_MAX, { error: LIMIT_REASON })
  .default(DEFAULT_LIMIT);

// Query strings carry text: only exactly `true`/`false` and only digits are converted; anything else
// reaches the typed schema unchanged and fails there with the field's reason.
const booleanFromQuery = (description: string) =>
  z
    .preprocess(
      (value) => (value === 'true' ? true : value === 'false' ? false : value),
      z.boolean({ error: BOOLEAN_REASON }).optional(),
    )
    .describe(description);

/** `GET /api/v1/doctors` query string. Use `parseSearchParams` for the full rules (unknown, repeated, keys). */
export const searchParamsSchema = z.object({
  country: countryFromQuery,
  city,
  q,
  whatsapp: booleanFromQuery(whatsappDescription),
  verified: booleanFromQuery(verifiedDescription),
  limit: z
    .preprocess(
      (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
      limitNumber,
    )
    .describe(limitDescription),
  cursor,
});

/** Arguments of the MCP tool `search_doctors`: the same rules over typed JSON values. */
export const searchToolInputSchema = z.object({
  country: countryFromTool,
  city,
  q,
  whatsapp: z.boolean({ error: BOOLEAN_REASON }).optional().describe(whatsappDescription),
  verified: z.boolean({ error: BOOLEAN_REASON }).optional().describe(verifiedDescription),
  limit: limitNumber.describe(limitDescription),
  cursor,
});

/** Validates a parsed query string (values are strings, or arrays when a parameter was repeated). */
export function parseSearchParams(raw: Record<string, unknown>): SearchParamsResult {
  return parseWith(searchParamsSchema, raw, 'query');
}

/**
 * Validates MCP tool arguments. `null` counts as absent: AI clients often send null for optional
 * arguments they mean to omit.
 */
export function parseSearchToolInput(input: unknown): SearchParamsResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return {
      ok: false,
      errors: [{ parameter: 'arguments', reason: 'must be an object', code: 'invalid_value' }],
      keyInQuery: false,
    };
  }
  return parseWith(searchToolInputSchema, input as Record<string, unknown>, 'tool');
}

/** The part of the parameters that selects records (and that a cursor is bound to). */
export function filtersOf(params: SearchParams | SearchFilters): SearchFilters {
  return withoutUndefined({
    country: params.country,
    city: params.city,
    q: params.q,
    whatsapp: params.whatsapp,
    verified: params.verified,
  });
}

type InputSchema = typeof searchParamsSchema | typeof searchToolInputSchema;

function parseWith(
  schema: InputSchema,
  raw: Record<string, unknown>,
  source: 'query' | 'tool',
): SearchParamsResult {
  const errors: ParameterError[] = [];
  const rejected = new Set<string>();
  const candidate: Partial<Record<KnownParameter, unknown>> = {};
  let keyInQuery = false;

  for (const name of Object.keys(raw)) {
    if (isKeyLikeName(name)) {
      keyInQuery = true;
      errors.push(keyInQueryError(name));
      continue;
    }
    if (!isKnownParameter(name)) {
      errors.push({
        parameter: safeParameterName(name),
        reason: `is not a known parameter (known: ${KNOWN_PARAMETERS.join(', ')}; names are case-sensitive)`,
        code: 'unknown_parameter',
      });
      continue;
    }
    const value = raw[name];
    if (value === undefined || (source === 'tool' && value === null)) continue;
    if (source === 'query' && Array.isArray(value)) {
      rejected.add(name);
      errors.push({ parameter: name, reason: 'must be given once', code: 'repeated_parameter' });
      continue;
    }
    if (source === 'query' && typeof value !== 'string') {
      rejected.add(name);
      errors.push({ parameter: name, reason: 'must be a single text value', code: 'invalid_value' });
      continue;
    }
    candidate[name] = value;
  }

  // Always run the schema, even after earlier errors, so every bad parameter is reported at once.
  const parsed = schema.safeParse(candidate);
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const parameter = String(issue.path[0] ?? 'arguments');
      // One reason per parameter (a number can fail several checks) and none for one already reported.
      if (rejected.has(parameter) || seen.has(parameter)) continue;
      seen.add(parameter);
      const missing = isKnownParameter(parameter) && candidate[parameter] === undefined;
      errors.push({
        parameter,
        reason: issue.message,
        code: missing ? 'missing_parameter' : 'invalid_value',
      });
    }
  }

  if (errors.length > 0 || !parsed.success) return { ok: false, errors, keyInQuery };
  const value = parsed.data;
  return {
    ok: true,
    value: withoutUndefined({ ...filtersOf(value), limit: value.limit, cursor: value.cursor }),
  };
}

function isKnownParameter(name: string): name is KnownParameter {
  return (KNOWN_PARAMETERS as readonly string[]).includes(name);
}

/**
 * The `key_in_query` errors alone, for parameter names that look like an API key: what a request hook
 * needs to refuse a leaked key before authentication, without validating the rest of the query.
 */
export function keyInQueryErrors(raw: Record<string, unknown>): ParameterError[] {
  return Object.keys(raw).filter(isKeyLikeName).map(keyInQueryError);
}

function keyInQueryError(name: string): ParameterError {
  return { parameter: safeParameterName(name), reason: KEY_IN_QUERY_REASON, code: 'key_in_query' };
}

const KEY_LIKE_NAMES = new Set(['apikey', 'xapikey', 'key', 'accesstoken', 'token', 'authorization']);

function isKeyLikeName(name: string): boolean {
  const lower = name.toLowerCase();
  return KEY_LIKE_NAMES.has(lower.replace(/[-_\s]/g, '')) || lower.includes(API_KEY_PREFIX);
}

/** A parameter name as it may be echoed in error bodies and logs: never a secret pasted as a name, never an unbounded string. */
export function safeParameterName(name: string): string {
  if (name.toLowerCase().includes(API_KEY_PREFIX)) return '[redacted]';
  const codePoints = [...name];
  return codePoints.length > 64 ? `${codePoints.slice(0, 64).join('')}…` : name;
}

function withinCodePoints(max: number): (text: string) => boolean {
  // Code points, not UTF-16 units or bytes: "characters" as a user counts them (and as JSON Schema does).
  return (text) => text.length <= max || [...text].length <= max;
}

function withoutUndefined<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
