import { z } from 'zod';
import { COUNTRY_CODES_TEXT } from '../requests/country-codes-text.js';
import type { CountryCode } from '../events/events.js';
import {
  countryFromQuery,
  limitFromQuery,
  parseParameters,
  type ParameterError,
} from '../requests/query-parameters.js';
import { ok, type Result } from '../shared/result.js';
import { OPEN_AT_REASON, openAtText } from '../requests/instant-text.js';
import { CURSOR_MAX_LENGTH } from '../requests/page-bounds.js';

/**
 * Validation of `GET /api/v1/changes`: the same rules as search for what the two share
 * (country, unknown / repeated parameters, keys in the URL, every bad parameter reported at once),
 * with the feed's own page size.
 */
export const CHANGES_LIMIT_MAX = 1000;
export const CHANGES_DEFAULT_LIMIT = 100;

/**
 * Where a request of the feed starts: a new consumer's snapshot (no `since`), an instant (API 1.3), or
 * the cursor of an earlier page. A cursor (base64url and a dot) never holds a colon, and every instant
 * does (its time of day), so one look tells them apart.
 */
export type ChangesStart =
  { kind: 'snapshot' } | { kind: 'instant'; at: Date } | { kind: 'cursor'; token: string };

/**
 * `merges` (API 1.4): a record merged away into another comes as a `merged` entry naming the survivor
 * instead of a `delete`; without it the feed is what it was.
 */
export type ChangesParams = { country: CountryCode; start: ChangesStart; limit: number; merges: boolean };

const SINCE_INSTANT_REASON = `${OPEN_AT_REASON}, or a cursor exactly as page.nextCursor gave it`;

function looksLikeInstant(since: string): boolean {
  return since.includes(':');
}

/** The query string of `GET /api/v1/changes`. Use `parseChangesParams` for the full rules. */
export const changesParamsSchema = z.object({
  country: countryFromQuery.describe(
    `Dataset code, case-insensitive: ${COUNTRY_CODES_TEXT.accepted}. The feed lists the records served in this dataset, and those that stopped being served there.`,
  ),
  since: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty; omit since to start from a snapshot' })
    .max(CURSOR_MAX_LENGTH, { error: `must be at most ${CURSOR_MAX_LENGTH} characters` })
    .refine((since) => !looksLikeInstant(since) || openAtText.safeParse(since).success, {
      error: SINCE_INSTANT_REASON,
    })
    .optional()
    .describe(
      'The opaque page.nextCursor of an earlier response for the same country, or (API 1.3) an instant, ISO 8601 with a UTC offset or Z (e.g. "2026-11-01T00:00:00Z"): the feed then starts with every change made after that instant (and possibly a few made shortly before it), and each entry carries `changedAt`. Omit it to start from a snapshot: every record currently served, as upserts (no removals), then the changes after it.',
    ),
  limit: limitFromQuery(
    { max: CHANGES_LIMIT_MAX, default: CHANGES_DEFAULT_LIMIT },
    `Changes per page, 1 to ${CHANGES_LIMIT_MAX}.`,
  ),
  merges: z
    .preprocess(
      (value) => (value === 'true' ? true : value === 'false' ? false : value),
      z.boolean({ error: 'must be true or false' }).optional(),
    )
    .describe(
      'API 1.4. true: a record merged away into another record (the same practice listed twice) comes as a `merged` entry with `mergedInto`, the id of the record that survives, instead of a `delete`, so a mirror can re-key it. Send it on every request of the feed; without it every entry is as before.',
    ),
});

/** Validates a parsed query string (values are strings, or arrays when a parameter was repeated). */
export function parseChangesParams(raw: Record<string, unknown>): Result<ChangesParams, ParameterError[]> {
  const parsed = parseParameters(changesParamsSchema, raw, 'query');
  if (!parsed.ok) return parsed;
  const { country, since, limit, merges } = parsed.value;
  return ok({ country, limit, start: changesStartOf(since), merges: merges === true });
}

function changesStartOf(since: string | undefined): ChangesStart {
  if (since === undefined) return { kind: 'snapshot' };
  if (looksLikeInstant(since)) return { kind: 'instant', at: new Date(Date.parse(since)) };
  return { kind: 'cursor', token: since };
}
