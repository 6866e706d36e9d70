import { z } from 'zod';
import { containsApiKeyPrefix } from '../keys/api-key.js';
import { COUNTRY_CODES, type CountryCode } from '../events/events.js';
import { PAGE_LANGUAGE_CODES, type PageLanguage } from '../places/profile-url.js';
import { fail, ok, type Result } from '../shared/result.js';

/**
 * The rules every public operation applies to its parameters (search, the changes feed, MCP tool
 * arguments): unknown names, repeated names and API keys in the URL are refused, every bad parameter is
 * reported at once, one reason each, and no message ever contains a parameter value.
 */

/** One bad parameter: its (safe) name and why, never its value. */
export type ParameterError = { parameter: string; reason: string };

export const KEY_IN_QUERY_REASON =
  'API keys must never be sent in the URL; send the key in the X-API-Key header (or Authorization: Bearer)';

/**
 * Validates raw parameters against `schema`, whose keys are the known parameter names. `query`: values
 * are strings, or arrays when a parameter was repeated. `tool`: typed JSON values, where `null` counts as
 * absent (AI clients often send null for optional arguments they mean to omit).
 */
export function parseParameters<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  raw: Record<string, unknown>,
  source: 'query' | 'tool',
  /** The names the unknown-parameter reason lists, when not all of them (see search-params.ts). */
  listed?: ReadonlyArray<string>,
): Result<z.output<z.ZodObject<Shape>>, ParameterError[]> {
  const known = Object.keys(schema.shape);
  const shown = listed ?? known;
  const errors: ParameterError[] = [];
  const rejected = new Set<string>();
  const candidate: Record<string, unknown> = {};

  for (const name of Object.keys(raw)) {
    if (isKeyLikeName(name)) {
      errors.push(keyInQueryError(name));
      continue;
    }
    if (!known.includes(name)) {
      errors.push({
        parameter: safeParameterName(name),
        reason: `is not a known parameter (known: ${shown.join(', ')}; names are case-sensitive)`,
      });
      continue;
    }
    const value = raw[name];
    if (value === undefined || (source === 'tool' && value === null)) continue;
    if (source === 'query' && Array.isArray(value)) {
      rejected.add(name);
      errors.push({ parameter: name, reason: 'must be given once' });
      continue;
    }
    if (source === 'query' && typeof value !== 'string') {
      rejected.add(name);
      errors.push({ parameter: name, reason: 'must be a single text value' });
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
      errors.push({ parameter, reason: issue.message });
    }
  }
  if (errors.length > 0 || !parsed.success) return fail(errors);
  // An optional parameter that is absent (or blank, for trimmed text) is left out, not set to undefined.
  return ok(withoutUndefined(parsed.data));
}

/**
 * The key-in-query errors alone, for parameter names that look like an API key: what a request hook
 * needs to refuse a leaked key before authentication, without validating the rest of the query.
 */
export function keyInQueryErrors(raw: Record<string, unknown>): ParameterError[] {
  return Object.keys(raw).filter(isKeyLikeName).map(keyInQueryError);
}

function keyInQueryError(name: string): ParameterError {
  return { parameter: safeParameterName(name), reason: KEY_IN_QUERY_REASON };
}

const KEY_LIKE_NAMES = new Set(['apikey', 'xapikey', 'key', 'accesstoken', 'token', 'authorization']);

function isKeyLikeName(name: string): boolean {
  const lower = name.toLowerCase();
  return KEY_LIKE_NAMES.has(lower.replace(/[-_\s]/g, '')) || containsApiKeyPrefix(lower);
}

/** A parameter name as it may be echoed in error bodies and logs: never a secret pasted as a name, never an unbounded string. */
export function safeParameterName(name: string): string {
  if (containsApiKeyPrefix(name.toLowerCase())) return '[redacted]';
  const codePoints = [...name];
  return codePoints.length > 64 ? `${codePoints.slice(0, 64).join('')}…` : name;
}

// ---- parameter schemas shared by several operations ----

const COUNTRY_REASON = `must be one of ${COUNTRY_CODES.join(', ')}`;
export const countryError = (issue: { input?: unknown }) =>
  issue.input === undefined ? `is required; ${COUNTRY_REASON}` : COUNTRY_REASON;

// The pattern spells out case-insensitivity; the value is normalized to lowercase. The OpenAPI document
// lists the codes as a lowercase enum instead (what generators type), saying that uppercase is accepted.
const CASE_INSENSITIVE_COUNTRY = new RegExp(
  `^(?:${COUNTRY_CODES.map((code) => [...code].map((c) => `[${c}${c.toUpperCase()}]`).join('')).join('|')})$`,
);

/** The pattern of `country` in a query string: the OpenAPI document finds it by this text. */
export const COUNTRY_QUERY_PATTERN = CASE_INSENSITIVE_COUNTRY.source;

/** `country` in a query string: a dataset code in any case, normalized to lowercase. */
export const countryFromQuery = z
  .string({ error: countryError })
  .regex(CASE_INSENSITIVE_COUNTRY, { error: COUNTRY_REASON })
  .transform((value) => value.toLowerCase() as CountryCode);

/** `country` in tool arguments: an enum guides AI clients better; other casings are still accepted. */
export const countryFromTool = z.preprocess(
  (value) => (typeof value === 'string' ? value.toLowerCase() : value),
  z.enum(COUNTRY_CODES, { error: countryError }),
);

const PAGE_LANGUAGES = PAGE_LANGUAGE_CODES as [PageLanguage, ...PageLanguage[]];

/** `lang` with a default, in a query string or tool arguments: a page language in any case, normalized to lowercase. */
export function langWithDefault(defaultLanguage: PageLanguage) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? value.toLowerCase() : value),
    z.enum(PAGE_LANGUAGES, { error: `must be one of ${PAGE_LANGUAGES.join(', ')}` }).default(defaultLanguage),
  );
}

/** A page size in a query string: only digits are converted; anything else fails with the reason. */
export function limitFromQuery(range: { max: number; default: number }, description: string) {
  const reason = `must be an integer from 1 to ${range.max}`;
  return z
    .preprocess(
      (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
      pageSize(range, reason),
    )
    .describe(description);
}

/** A page size as a typed number (tool arguments). */
export function pageSize(
  range: { max: number; default: number },
  reason = `must be an integer from 1 to ${range.max}`,
) {
  return z
    .number({ error: reason })
    .int({ error: reason })
    .min(1, { error: reason })
    .max(range.max, { error: reason })
    .default(range.default);
}

// At most `max` characters counted as code points, as a user counts them (and as JSON Schema does).
function atMostCodePoints(text: z.ZodString, max: number) {
  return text.refine((value) => value.length <= max || [...value].length <= max, {
    error: `must be at most ${max} characters`,
  });
}

/**
 * Optional free text: trimmed, blank meaning absent (a search box submitted empty), at most `max`
 * characters counted as code points.
 */
export function optionalText(max: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() || undefined : value),
    atMostCodePoints(z.string({ error: 'must be a string' }), max)
      .meta({ maxLength: max })
      .optional(),
  );
}

/** Required free text: trimmed, then 1 to `max` characters counted as code points; `reason` when absent or blank. */
export function requiredText(max: number, reason: string) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() : value),
    atMostCodePoints(z.string({ error: reason }).min(1, { error: reason }), max).meta({
      minLength: 1,
      maxLength: max,
    }),
  );
}

/** A page size past validation; anything but a positive integer here is a programming error. */
export function requirePageSize(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`page size must be a positive integer, got ${limit}`);
}

function withoutUndefined<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
