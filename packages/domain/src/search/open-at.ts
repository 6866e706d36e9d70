import { z } from 'zod';
import type { CountryCode } from '../events.js';
import { COUNTRY_TIME_ZONES } from '../opening-hours/time-zones.js';
import { minuteOfWeek } from '../opening-hours/week-minutes.js';

/**
 * The `openAt` / `openNow` filters: an instant, and the clause that keeps the records open at
 * it, each in its own time zone. A record's `openRanges` are local minutes of the week in its
 * `timeZone`; a dataset's records can be in several zones (COUNTRY_TIME_ZONES), so the clause asks, for
 * each zone, "in this zone, and open at the minute the instant shows there".
 */

export const OPEN_AT_REASON =
  'must be an ISO 8601 date and time with a UTC offset or Z, e.g. "2026-11-23T09:30:00+01:00" or "2026-11-23T08:30Z"';
export const OPEN_NOW_REASON =
  'must be true (open at the time of the request); omit openNow not to filter by opening hours';

// With or without seconds (and fractions); the offset is required: an instant, not a wall-clock time.
const WITH_SECONDS = z.iso.datetime({ offset: true });
const WITHOUT_SECONDS = z.iso.datetime({ offset: true, precision: -1 });

/** `openAt` as given: the text, once it is known to be an instant. */
export const openAtText = z
  .string({ error: OPEN_AT_REASON })
  .refine(
    (text) =>
      (WITH_SECONDS.safeParse(text).success || WITHOUT_SECONDS.safeParse(text).success) &&
      Number.isFinite(Date.parse(text)),
    { error: OPEN_AT_REASON },
  )
  .optional();

/** The canonical form of an `openAt` instant: UTC, milliseconds, so equal instants bind one cursor. */
export function canonicalInstant(text: string): string {
  return new Date(Date.parse(text)).toISOString();
}

type OpenInZone = {
  bool: { filter: [{ term: { timeZone: string } }, { term: { openRanges: number } }] };
};
export type OpenAtFilter = { bool: { should: OpenInZone[]; minimum_should_match: 1 } };

/** Keeps the records of dataset `country` that are open at `instant` in their own time zone. */
export function openAtClause(country: CountryCode, instant: Date): OpenAtFilter {
  return {
    bool: {
      should: COUNTRY_TIME_ZONES[country].map((timeZone): OpenInZone => ({
        bool: {
          filter: [{ term: { timeZone } }, { term: { openRanges: minuteOfWeek(instant, timeZone) } }],
        },
      })),
      minimum_should_match: 1,
    },
  };
}
