import { z } from 'zod';
import { COUNTRY_CODES_TEXT } from '../country-codes-text.js';
import type { CountryCode } from '../events.js';
import {
  countryFromQuery,
  limitFromQuery,
  parseParameters,
  type ParameterError,
} from '../query-parameters.js';
import type { Result } from '../result.js';
import { CURSOR_MAX_LENGTH } from '../search/page-bounds.js';

/**
 * Validation of `GET /api/v1/changes`: the same rules as search for what the two share
 * (country, unknown / repeated parameters, keys in the URL, every bad parameter reported at once),
 * with the feed's own page size.
 */
export const CHANGES_LIMIT_MAX = 1000;
export const CHANGES_DEFAULT_LIMIT = 100;

export type ChangesParams = { country: CountryCode; since?: string; limit: number };

/** The query string of `GET /api/v1/changes`. Use `parseChangesParams` for the full rules. */
export const changesParamsSchema = z.object({
  country: countryFromQuery.describe(
    `Dataset code, case-insensitive: ${COUNTRY_CODES_TEXT.accepted}. The feed lists the records served in this dataset, and those that stopped being served there.`,
  ),
  since: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty; omit since to start from a snapshot' })
    .max(CURSOR_MAX_LENGTH, { error: `must be at most ${CURSOR_MAX_LENGTH} characters` })
    .optional()
    .describe(
      'The opaque page.nextCursor of an earlier response for the same country. Omit it to start from a snapshot: every record currently served, as upserts (no removals), then the changes after it.',
    ),
  limit: limitFromQuery(
    { max: CHANGES_LIMIT_MAX, default: CHANGES_DEFAULT_LIMIT },
    `Changes per page, 1 to ${CHANGES_LIMIT_MAX}.`,
  ),
});

/** Validates a parsed query string (values are strings, or arrays when a parameter was repeated). */
export function parseChangesParams(raw: Record<string, unknown>): Result<ChangesParams, ParameterError[]> {
  return parseParameters(changesParamsSchema, raw, 'query');
}
