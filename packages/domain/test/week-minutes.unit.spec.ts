import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpeningHours } from '../src/opening-hours/opening-hours-schema.js';
import { TIME_OF_DAY_PATTERN } from '../src/events/events.js';
import { COUNTRY_TIME_ZONES } from '../src/opening-hours/time-zones.js';
import {
  MINUTES_PER_WEEK,
  minuteOfWeek,
  minutesOfTime,
  openRangesOf,
  type MinuteRange,
} from '../src/opening-hours/week-minutes.js';

type Period = OpeningHours['periods'][number];

const at = (day: number, time: string) => (day - 1) * 1440 + minutesOfTime(time);
const isIn = (ranges: MinuteRange[], minute: number) =>
  ranges.some((range) => range.gte <= minute && minute < range.lt);

/** The naive reading of published hours: open on its day from `open`, and into the next day when overnight. */
function naiveOpen(periods: Period[], day: number, minuteOfDay: number): boolean {
  return periods.some((period) => {
    const open = minutesOfTime(period.open);
    const close = minutesOfTime(period.close);
    const overnight = close <= open;
    const nextDay = (period.day % 7) + 1;
    const sameDay = period.day === day && minuteOfDay >= open && (overnight || minuteOfDay < close);
    const dayAfter = overnight && nextDay === day && minuteOfDay < close;
    return sameDay || dayAfter;
  });
}

/** Local wall clock by another route than the code under test: the calendar date, then its weekday. */
function localClock(instant: Date, timeZone: string): { day: number; minuteOfDay: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((part) => [part.type, Number(part.value)]),
  );
  const { year = 0, month = 0, day = 0, hour = 0, minute = 0 } = parts;
  const sundayZero = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return { day: sundayZero === 0 ? 7 : sundayZero, minuteOfDay: hour * 60 + minute };
}

const pad = (value: number) => String(value).padStart(2, '0');
const timeOfDay = (max: number) =>
  fc.integer({ min: 0, max }).map((minutes) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`);
const periodArbitrary: fc.Arbitrary<Period> = fc.record({
  day: fc.integer({ min: 1, max: 7 }),
  open: timeOfDay(1439),
  // Up to 24:00; often equal to or before `open` (overnight).
  close: timeOfDay(1440),
});
const periodsArbitrary = fc.array(periodArbitrary, { maxLength: 6 });
const ALL_ZONES: string[] = Object.values(COUNTRY_TIME_ZONES).flat();
const instantArbitrary = fc.date({
  min: new Date('1990-01-01T00:00:00Z'),
  max: new Date('2060-01-01T00:00:00Z'),
  noInvalidDate: true,
});

describe('minutesOfTime', () => {
  it('reads every time the event schema admits, 00:00 … 23:59 and 24:00', () => {
    for (let minute = 0; minute <= 1440; minute += 1) {
      const time = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
      expect(TIME_OF_DAY_PATTERN.test(time)).toBe(true);
      expect(minutesOfTime(time)).toBe(minute);
    }
  });
});

describe('openRangesOf', () => {
  it('turns periods into minutes of the week, merging what touches', () => {
    expect(
      openRangesOf([
        { day: 1, open: '08:00', close: '12:00' },
        { day: 1, open: '12:00', close: '18:00' },
        { day: 3, open: '09:00', close: '24:00' },
      ]),
    ).toEqual([
      { gte: at(1, '08:00'), lt: at(1, '18:00') },
      { gte: at(3, '09:00'), lt: at(4, '00:00') },
    ]);
  });

  it('runs a period that closes at or before it opens past midnight', () => {
    expect(openRangesOf([{ day: 5, open: '22:00', close: '02:00' }])).toEqual([
      { gte: at(5, '22:00'), lt: at(6, '02:00') },
    ]);
    expect(openRangesOf([{ day: 2, open: '08:00', close: '08:00' }])).toEqual([
      { gte: at(2, '08:00'), lt: at(3, '08:00') },
    ]);
    expect(openRangesOf([{ day: 2, open: '00:00', close: '00:00' }])).toEqual([
      { gte: at(2, '00:00'), lt: at(3, '00:00') },
    ]);
  });

  it('wraps Sunday night into Monday morning', () => {
    expect(openRangesOf([{ day: 7, open: '20:00', close: '03:00' }])).toEqual([
      { gte: 0, lt: at(1, '03:00') },
      { gte: at(7, '20:00'), lt: MINUTES_PER_WEEK },
    ]);
    expect(openRangesOf([{ day: 7, open: '20:00', close: '24:00' }])).toEqual([
      { gte: at(7, '20:00'), lt: MINUTES_PER_WEEK },
    ]);
    // Open round the clock, every day: one range, the whole week.
    const always = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, open: '00:00', close: '24:00' }));
    expect(openRangesOf(always)).toEqual([{ gte: 0, lt: MINUTES_PER_WEEK }]);
    expect(openRangesOf([])).toEqual([]);
  });

  it('law: sorted, disjoint, non-touching ranges within the week', () => {
    fc.assert(
      fc.property(periodsArbitrary, (periods) => {
        const ranges = openRangesOf(periods);
        ranges.forEach((range, index) => {
          expect(range.gte).toBeGreaterThanOrEqual(0);
          expect(range.lt).toBeLessThanOrEqual(MINUTES_PER_WEEK);
          expect(range.gte).toBeLessThan(range.lt);
          const next = ranges[index + 1];
          if (next !== undefined) expect(range.lt).toBeLessThan(next.gte);
        });
      }),
    );
  });

  it('law: a minute of the week is in the ranges iff the naive per-day reading says open', () => {
    fc.assert(
      fc.property(periodsArbitrary, fc.integer({ min: 0, max: MINUTES_PER_WEEK - 1 }), (periods, minute) => {
        const day = Math.floor(minute / 1440) + 1;
        expect(isIn(openRangesOf(periods), minute)).toBe(naiveOpen(periods, day, minute % 1440));
      }),
      { numRuns: 500 },
    );
  });
});

describe('minuteOfWeek', () => {
  it('is Monday 00:00 = 0 … Sunday 23:59 = 10079, in the given zone', () => {
    // 2026-11-23 is a Monday.
    expect(minuteOfWeek(new Date('2026-11-23T00:00:00+01:00'), 'Europe/Berlin')).toBe(0);
    expect(minuteOfWeek(new Date('2026-11-23T09:30:59+01:00'), 'Europe/Berlin')).toBe(at(1, '09:30'));
    expect(minuteOfWeek(new Date('2026-11-22T23:59:00+01:00'), 'Europe/Berlin')).toBe(MINUTES_PER_WEEK - 1);
    // The same instant elsewhere.
    expect(minuteOfWeek(new Date('2026-11-23T09:30:00+01:00'), 'Atlantic/Canary')).toBe(at(1, '08:30'));
    expect(minuteOfWeek(new Date('2026-11-23T09:30:00+01:00'), 'Atlantic/Azores')).toBe(at(1, '07:30'));
    expect(minuteOfWeek(new Date('2026-11-23T09:30:00+01:00'), 'America/Mexico_City')).toBe(at(1, '02:30'));
    expect(minuteOfWeek(new Date('2026-11-23T00:30:00+01:00'), 'America/Tijuana')).toBe(at(7, '15:30'));
    expect(() => minuteOfWeek(new Date(Number.NaN), 'Europe/Berlin')).toThrow(RangeError);
  });

  it('follows the clocks across daylight-saving changes (Europe/Berlin)', () => {
    const berlin = (iso: string) => minuteOfWeek(new Date(iso), 'Europe/Berlin');
    // Spring forward, Sunday 29 March 2026: 02:00 CET becomes 03:00 CEST at 01:00 UTC.
    expect(berlin('2026-03-29T00:59:00Z')).toBe(at(7, '01:59'));
    expect(berlin('2026-03-29T01:00:00Z')).toBe(at(7, '03:00'));
    // Fall back, Sunday 25 October 2026: 03:00 CEST becomes 02:00 CET at 01:00 UTC; 02:xx happens twice.
    expect(berlin('2026-10-25T00:59:00Z')).toBe(at(7, '02:59'));
    expect(berlin('2026-10-25T01:00:00Z')).toBe(at(7, '02:00'));
    expect(berlin('2026-10-25T01:59:00Z')).toBe(at(7, '02:59'));
    expect(berlin('2026-10-25T02:00:00Z')).toBe(at(7, '03:00'));
  });

  it('follows the clocks across daylight-saving changes (Atlantic/Canary)', () => {
    const canary = (iso: string) => minuteOfWeek(new Date(iso), 'Atlantic/Canary');
    // Spring forward at 01:00 UTC: 01:00 WET becomes 02:00 WEST.
    expect(canary('2026-03-29T00:59:00Z')).toBe(at(7, '00:59'));
    expect(canary('2026-03-29T01:00:00Z')).toBe(at(7, '02:00'));
    // Fall back at 01:00 UTC: 02:00 WEST becomes 01:00 WET.
    expect(canary('2026-10-25T00:59:00Z')).toBe(at(7, '01:59'));
    expect(canary('2026-10-25T01:00:00Z')).toBe(at(7, '01:00'));
  });

  it('law: agrees with the wall clock read by calendar date', () => {
    fc.assert(
      fc.property(instantArbitrary, fc.constantFrom(...ALL_ZONES), (instant, timeZone) => {
        const { day, minuteOfDay } = localClock(instant, timeZone);
        expect(minuteOfWeek(instant, timeZone)).toBe((day - 1) * 1440 + minuteOfDay);
      }),
      { numRuns: 500 },
    );
  });
});

describe('open at an instant', () => {
  const openAt = (periods: Period[], timeZone: string, iso: string) =>
    isIn(openRangesOf(periods), minuteOfWeek(new Date(iso), timeZone));

  it('law: an instant is open iff the naive per-day check of its local wall clock says so', () => {
    fc.assert(
      fc.property(
        periodsArbitrary,
        instantArbitrary,
        fc.constantFrom(...ALL_ZONES),
        (periods, instant, timeZone) => {
          const { day, minuteOfDay } = localClock(instant, timeZone);
          expect(isIn(openRangesOf(periods), minuteOfWeek(instant, timeZone))).toBe(
            naiveOpen(periods, day, minuteOfDay),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('opens at local 03:00 the moment Berlin springs forward, not an hour later', () => {
    const sundayNight = [{ day: 7, open: '02:30', close: '03:30' }];
    expect(openAt(sundayNight, 'Europe/Berlin', '2026-03-29T00:59:00Z')).toBe(false); // 01:59 CET
    expect(openAt(sundayNight, 'Europe/Berlin', '2026-03-29T01:00:00Z')).toBe(true); // 03:00 CEST
    expect(openAt(sundayNight, 'Europe/Berlin', '2026-03-29T01:30:00Z')).toBe(false); // 03:30 CEST
  });

  it('is open in both runs of the hour Berlin falls back through', () => {
    const early = [{ day: 7, open: '02:00', close: '02:30' }];
    expect(openAt(early, 'Europe/Berlin', '2026-10-24T23:59:00Z')).toBe(false); // 01:59 CEST
    expect(openAt(early, 'Europe/Berlin', '2026-10-25T00:00:00Z')).toBe(true); // 02:00 CEST
    expect(openAt(early, 'Europe/Berlin', '2026-10-25T00:30:00Z')).toBe(false); // 02:30 CEST
    expect(openAt(early, 'Europe/Berlin', '2026-10-25T01:00:00Z')).toBe(true); // 02:00 CET
    expect(openAt(early, 'Europe/Berlin', '2026-10-25T01:30:00Z')).toBe(false); // 02:30 CET
  });

  it('reads the Canary Islands an hour behind the mainland, across their own changes', () => {
    const morning = [{ day: 7, open: '01:30', close: '02:30' }];
    expect(openAt(morning, 'Atlantic/Canary', '2026-03-29T00:59:00Z')).toBe(false); // 00:59 WET
    expect(openAt(morning, 'Atlantic/Canary', '2026-03-29T01:00:00Z')).toBe(true); // 02:00 WEST
    expect(openAt(morning, 'Atlantic/Canary', '2026-10-25T00:29:00Z')).toBe(false); // 01:29 WEST
    expect(openAt(morning, 'Atlantic/Canary', '2026-10-25T00:30:00Z')).toBe(true); // 01:30 WEST
    expect(openAt(morning, 'Atlantic/Canary', '2026-10-25T01:00:00Z')).toBe(false); // 01:00 WET
    expect(openAt(morning, 'Atlantic/Canary', '2026-10-25T01:30:00Z')).toBe(true); // 01:30 WET
  });

  it('holds a Friday night period across midnight, and a Sunday night one into Monday', () => {
    const lateFriday = [{ day: 5, open: '22:00', close: '02:00' }];
    // 2026-11-27 is a Friday.
    expect(openAt(lateFriday, 'Europe/Rome', '2026-11-27T21:59:00+01:00')).toBe(false);
    expect(openAt(lateFriday, 'Europe/Rome', '2026-11-27T22:00:00+01:00')).toBe(true);
    expect(openAt(lateFriday, 'Europe/Rome', '2026-11-28T01:59:00+01:00')).toBe(true);
    expect(openAt(lateFriday, 'Europe/Rome', '2026-11-28T02:00:00+01:00')).toBe(false);
    const lateSunday = [{ day: 7, open: '23:00', close: '01:00' }];
    expect(openAt(lateSunday, 'Europe/Rome', '2026-11-29T23:30:00+01:00')).toBe(true);
    expect(openAt(lateSunday, 'Europe/Rome', '2026-11-30T00:30:00+01:00')).toBe(true);
    expect(openAt(lateSunday, 'Europe/Rome', '2026-11-30T01:00:00+01:00')).toBe(false);
    expect(openAt(lateSunday, 'Europe/Rome', '2026-11-23T00:30:00+01:00')).toBe(true);
  });
});
