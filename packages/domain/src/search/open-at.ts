import type { CountryCode } from '../events/events.js';
import { COUNTRY_TIME_ZONES } from '../opening-hours/time-zones.js';
import { minuteOfWeek } from '../opening-hours/week-minutes.js';

/**
 * The `openAt` / `openNow` filters: an instant, and the clause that keeps the records open at
 * it, each in its own time zone (the instant's text is parsed in requests/instant-text.ts). A record's `openRanges` are local minutes of the week in its
 * `timeZone`; a dataset's records can be in several zones (COUNTRY_TIME_ZONES), so the clause asks, for
 * each zone, "in this zone, and open at the minute the instant shows there".
 */

export const OPEN_NOW_REASON =
  'must be true (open at the time of the request); omit openNow not to filter by opening hours';

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
