import type { OpeningHours } from './opening-hours-schema.js';
import type { PlaceState } from '../events/place-state.js';
import { timeZoneOf, type PlaceWhereabouts } from './time-zones.js';
import { isoWeekdayOf } from './weekday-labels.js';

type Period = OpeningHours['periods'][number];

/** What the hours are read from: a Doctor's published hours and whereabouts. */
type PublishedHours = PlaceWhereabouts & {
  workingHours: Readonly<Record<string, ReadonlyArray<{ open: string; close: string }>>> | null;
};

/**
 * The structured opening hours of a served place: the published `workingHours` read as ISO
 * weekdays, with the place's time zone. All or nothing: when a day label is not a weekday of the
 * vocabulary (a holiday, a range such as "Mo-Fr") or a range opens at 24:00, the hours are not
 * structured at all (null), because a partial week would call a day closed that may well be open.
 * Periods come sorted by day, opening and closing time, without duplicates (two labels of one day,
 * e.g. "Monday" and "Mon", add up).
 */
export function openingHoursOf(state: PlaceState, doctor: PublishedHours): OpeningHours | null {
  const { publication } = state;
  if (publication === null || doctor.workingHours === null) return null;
  const periods: Period[] = [];
  for (const [label, ranges] of Object.entries(doctor.workingHours)) {
    const day = isoWeekdayOf(label);
    if (day === undefined) return null;
    for (const { open, close } of ranges) {
      if (open === '24:00') return null;
      periods.push({ day, open, close });
    }
  }
  if (periods.length === 0) return null;
  return { timeZone: timeZoneOf(publication.country, doctor), periods: uniqueSorted(periods) };
}

function uniqueSorted(periods: Period[]): Period[] {
  const sorted = [...periods].sort(comparePeriods);
  return sorted.filter(
    (period, index) => index === 0 || comparePeriods(sorted[index - 1] as Period, period) !== 0,
  );
}

function comparePeriods(a: Period, b: Period): number {
  // HH:MM compares as text.
  if (a.day !== b.day) return a.day - b.day;
  if (a.open !== b.open) return a.open < b.open ? -1 : 1;
  if (a.close !== b.close) return a.close < b.close ? -1 : 1;
  return 0;
}
