import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_WARNING_MS, createDatabaseClock, offsetOf } from '../src/database-clock.js';

describe('the database clock a process keeps', () => {
  // A host clock the spec moves by hand.
  const hostClock = (start: number) => {
    let now = start;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('is the host clock until a reading, then the host clock plus the offset the latest reading showed', () => {
    const host = hostClock(1_000_000);
    const clock = createDatabaseClock({ hostNow: host.now });
    expect(clock.now().getTime()).toBe(1_000_000);
    expect(clock.skewMs()).toBeNull();
    // The host runs 5 s behind the database.
    clock.observe({ databaseTime: new Date(1_005_000), sentAt: 999_990, answeredAt: 1_000_010 });
    expect(clock.skewMs()).toBe(5_000);
    host.advance(60_000);
    expect(clock.now().getTime()).toBe(1_065_000);
    // A later reading replaces the offset (the host clock was set right meanwhile).
    host.advance(5_000);
    clock.observe({ databaseTime: new Date(1_065_000), sentAt: 1_064_990, answeredAt: 1_065_010 });
    expect(clock.skewMs()).toBe(0);
    expect(clock.now().getTime()).toBe(1_065_000);
  });

  it('takes the middle of the round trip as the instant the database read its clock', () => {
    expect(offsetOf({ databaseTime: new Date(10_030), sentAt: 10_000, answeredAt: 10_040 })).toBe(10);
    expect(offsetOf({ databaseTime: new Date(9_000), sentAt: 10_000, answeredAt: 10_000 })).toBe(-1_000);
  });

  it('reports a skew beyond a second once, and again only after it came back within', () => {
    const host = hostClock(0);
    const reported: number[] = [];
    const clock = createDatabaseClock({ hostNow: host.now, onSkewed: (skew) => reported.push(skew) });
    const reading = (skew: number) =>
      clock.observe({
        databaseTime: new Date(host.now() + skew),
        sentAt: host.now(),
        answeredAt: host.now(),
      });
    reading(CLOCK_SKEW_WARNING_MS);
    expect(reported).toEqual([]);
    reading(-1_500);
    reading(-1_600);
    expect(reported).toEqual([-1_500]);
    reading(200);
    reading(3_000);
    expect(reported).toEqual([-1_500, 3_000]);
  });
});
