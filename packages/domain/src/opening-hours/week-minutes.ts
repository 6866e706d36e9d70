import type { OpeningHours } from './opening-hours-schema.js';

/**
 * Opening hours as local "minutes of the week": Monday 00:00 is 0, Sunday 23:59 is 10079. A place's
 * periods become ranges of these minutes in its own time zone, and an instant becomes the minute its
 * wall clock shows there, so "open at" is one range lookup and daylight saving needs no special case:
 * the wall clock already reflects it. In the hour that the clocks skip, no instant shows those minutes;
 * in the hour that repeats, both instants show the same minutes and get the same answer.
 */

export const MINUTES_PER_DAY = 24 * 60;
export const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

/** Minutes of the week `gte` up to, not including, `lt` (Elasticsearch `integer_range` form). */
export type MinuteRange = { gte: number; lt: number };

/** "HH:MM" (24:00 allowed; the event schema admits no other form) as minutes after midnight. */
export function minutesOfTime(time: string): number {
  // Fixed positions, no split: every period of every place with hours comes through here twice.
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/**
 * The ranges a place is open, sorted, merged where they touch or overlap, within 0 … 10080. A period
 * opens on its day at `open`; it closes the same day at `close`, or, when `close` is at or before
 * `open`, the next day (so 22:00–02:00 runs past midnight and 08:00–08:00 is 24 hours); 24:00 is the
 * end of its day. What runs past Sunday midnight continues on Monday.
 */
export function openRangesOf(periods: OpeningHours['periods']): MinuteRange[] {
  const ranges: MinuteRange[] = [];
  for (const period of periods) {
    const open = minutesOfTime(period.open);
    let close = minutesOfTime(period.close);
    if (close <= open) close += MINUTES_PER_DAY;
    const start = (period.day - 1) * MINUTES_PER_DAY + open;
    const end = (period.day - 1) * MINUTES_PER_DAY + close;
    if (end <= MINUTES_PER_WEEK) {
      ranges.push({ gte: start, lt: end });
    } else {
      // Sunday night into Monday morning: the week wraps.
      ranges.push({ gte: start, lt: MINUTES_PER_WEEK }, { gte: 0, lt: end - MINUTES_PER_WEEK });
    }
  }
  return mergeRanges(ranges);
}

function mergeRanges(ranges: MinuteRange[]): MinuteRange[] {
  const sorted = [...ranges].sort((a, b) => a.gte - b.gte || a.lt - b.lt);
  const merged: MinuteRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range.gte <= last.lt) last.lt = Math.max(last.lt, range.lt);
    else merged.push({ ...range });
  }
  return merged;
}

// Formatting is the costly part; one formatter per zone, reused.
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();
const WEEKDAY_INDEX: Readonly<Record<string, number>> = {
  Mon: 0,
  Tue: 1,
  Wed: 2,
  Thu: 3,
  Fri: 4,
  Sat: 5,
  Sun: 6,
};

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = FORMATTERS.get(timeZone);
  if (formatter === undefined) {
    // h23: midnight is hour 00 (some locales' 24-hour clock would say 24).
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    FORMATTERS.set(timeZone, formatter);
  }
  return formatter;
}

/** The minute of the week the wall clock shows at `instant` in `timeZone` (an IANA name). */
export function minuteOfWeek(instant: Date, timeZone: string): number {
  if (Number.isNaN(instant.getTime())) throw new RangeError('minuteOfWeek needs a valid instant');
  let weekday: number | undefined;
  let hour = Number.NaN;
  let minute = Number.NaN;
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type === 'weekday') weekday = WEEKDAY_INDEX[part.value];
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  if (weekday === undefined || !Number.isInteger(hour) || !Number.isInteger(minute)) {
    throw new Error(`unexpected local time parts in ${timeZone}`);
  }
  return weekday * MINUTES_PER_DAY + hour * 60 + minute;
}
