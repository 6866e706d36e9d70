import { z } from 'zod';
import type { ApiKeyMode } from '../keys/api-key.js';
import { COUNTRY_CODES_TEXT } from '../requests/country-codes-text.js';
import { PLACE_ID_PATTERN, type CountryCode } from '../events/events.js';
import { countryFromQuery, parseParameters, type ParameterError } from '../requests/query-parameters.js';
import { fail, ok, type Result } from '../shared/result.js';
import { CURSOR_MAX_LENGTH } from '../requests/page-bounds.js';
import {
  CHANGES_CURSOR_REASONS,
  decodeChangesCursor,
  encodeChangesCursor,
  feedAfterSnapshot,
  snapshotStart,
  type SnapshotHorizon,
} from './changes-cursor.js';

/**
 * Validation and framing of `GET /api/v1/exports/{country}`: a whole dataset's served records as NDJSON,
 * from one snapshot of the store, ending with a trailer line that carries the changes-feed cursor to
 * follow from. The same rules as the changes feed for what the two share (country, unknown and repeated
 * parameters, every bad parameter reported at once).
 */

/** Places read from the store per page, and records per request unit charged (docs: "Exports"). */
export const EXPORT_PAGE_SIZE = 1000;
export const EXPORT_RECORDS_PER_UNIT = 1000;

export type ExportParams = {
  country: CountryCode;
  /** The Export-Resume token of the export being resumed. */
  resume?: string;
  /** The id of the last record received; only with `resume`. */
  after?: string;
};

export const exportPathSchema = z.object({
  country: countryFromQuery.describe(
    `Dataset code, case-insensitive: ${COUNTRY_CODES_TEXT.accepted}. The export lists every record served in this dataset.`,
  ),
});

/** The query string of the export. Use `parseExportParams` for the full rules. */
export const exportQuerySchema = z.object({
  resume: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty; omit resume to start a new export' })
    .max(CURSOR_MAX_LENGTH, { error: `must be at most ${CURSOR_MAX_LENGTH} characters` })
    .optional()
    .describe(
      'The `Export-Resume` header of an earlier export of the same country, to continue that export (the same snapshot, the same trailer cursor) after a dropped connection or an exhausted quota. Omit it to start a new export.',
    ),
  after: z
    .string({ error: 'must be a string' })
    .regex(PLACE_ID_PATTERN, { error: 'must be a record id (1-128 characters of A-Z a-z 0-9 _ -)' })
    .optional()
    .describe(
      'With `resume`: the `id` of the last record received; the export continues with the records after it. Without it a resumed export starts again from its first record.',
    ),
});

/**
 * Validates the path's country and the query string (values are strings, or arrays when a parameter was
 * repeated), reporting every bad parameter at once.
 */
export function parseExportParams(
  path: Record<string, unknown>,
  query: Record<string, unknown>,
): Result<ExportParams, ParameterError[]> {
  const country = parseParameters(exportPathSchema, path, 'query');
  const rest = parseParameters(exportQuerySchema, query, 'query');
  const errors = [...(country.ok ? [] : country.error), ...(rest.ok ? [] : rest.error)];
  if (rest.ok && rest.value.after !== undefined && rest.value.resume === undefined) {
    errors.push({
      parameter: 'after',
      reason: 'is only accepted with resume (the Export-Resume header of the export being continued)',
    });
  }
  if (!country.ok || !rest.ok || errors.length > 0) return fail(errors);
  return ok({ ...rest.value, country: country.value.country });
}

/**
 * The changes-feed cursor that delivers everything after an export's snapshot: a timed (API 1.3) feed,
 * whose entries carry when each change was made. Bound to the mode of the key that exported, as every
 * changes cursor is (a sandbox export's cursor must be followed with a test key).
 */
export function exportChangesCursor(
  horizon: SnapshotHorizon,
  country: CountryCode,
  secret: string,
  mode: ApiKeyMode = 'live',
): string {
  return encodeChangesCursor(feedAfterSnapshot(horizon, { timed: true }), country, secret, mode);
}

/**
 * The token that resumes an export of this snapshot (`resume`): a snapshot cursor of the changes feed,
 * bound to the mode of the key that started the export, as every changes cursor is. A live and a
 * sandbox dataset are two databases, so one's horizon means nothing in the other.
 */
export function exportResumeToken(
  horizon: SnapshotHorizon,
  country: CountryCode,
  mode: ApiKeyMode,
  secret: string,
): string {
  return encodeChangesCursor(snapshotStart(horizon), country, secret, mode);
}

/** Why a resume token was refused when it is a good token of the other mode. */
export const EXPORT_RESUME_OTHER_MODE: Readonly<Record<ApiKeyMode, string>> = {
  live: 'was issued to a live key (dk_live_); resume the export with a live key of the same account',
  test: 'was issued to a test key (dk_test_); resume the export with a test key of the same account',
};

const NOT_A_RESUME_TOKEN =
  'is not an Export-Resume token; send the Export-Resume header of the export exactly as it was received';

/** The snapshot an Export-Resume token resumes, for a key of `mode`, or why it cannot be used. */
export function decodeExportResumeToken(
  token: string,
  country: CountryCode,
  mode: ApiKeyMode,
  secret: string,
): Result<{ horizon: SnapshotHorizon; after: string }> {
  const decoded = decodeChangesCursor(token, country, secret, mode);
  if (!decoded.ok) {
    // The feed's reason for a cursor of the other mode speaks of `since`: an export's names `resume`.
    const otherMode: ApiKeyMode = mode === 'live' ? 'test' : 'live';
    const fromOtherMode = decoded.error === CHANGES_CURSOR_REASONS.otherMode[otherMode];
    return fail(fromOtherMode ? EXPORT_RESUME_OTHER_MODE[otherMode] : decoded.error);
  }
  if (decoded.value.kind !== 'snapshot') return fail(NOT_A_RESUME_TOKEN);
  return ok({ horizon: decoded.value.horizon, after: decoded.value.after });
}

/**
 * Whether one more request unit is due before sending the record after `sent` records of this response:
 * the request itself paid for the first EXPORT_RECORDS_PER_UNIT, each further started block costs one.
 */
export function exportUnitDue(sent: number): boolean {
  return sent > 0 && sent % EXPORT_RECORDS_PER_UNIT === 0;
}

/** Request units a response of `records` records costs in all (the request's own unit included). */
export function exportUnits(records: number): number {
  return Math.max(1, Math.ceil(records / EXPORT_RECORDS_PER_UNIT));
}

export type ExportTrailer = {
  export: {
    country: CountryCode;
    /** Records sent in this response. */
    records: number;
    complete: boolean;
    /** Why the export stopped early; only when not complete. */
    reason?: string;
    changesCursor: string;
  };
};

/** The last line of an export: the whole snapshot was sent, or why not, and where the feed takes over. */
export function exportTrailerLine(trailer: ExportTrailer['export']): string {
  const { country, records, complete, reason, changesCursor } = trailer;
  const body = complete
    ? { country, records, complete, changesCursor }
    : { country, records, complete, reason, changesCursor };
  return `${JSON.stringify({ export: body })}\n`;
}
