import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  KEY_USAGE_DAYS,
  expiryFor,
  graceEndFor,
  keyEndsSoon,
  keyStateAt,
  keyWorksAt,
  nextUsageDayStart,
  successorExpiry,
  usageDay,
  usageTotals,
  usageWindow,
} from '../src/keys/key-lifecycle.js';

const at = (iso: string): Date => new Date(iso);
const DAY = 86_400_000;
// Instants between 2001 and 2099.
const instant = fc.integer({ min: 978_307_200_000, max: 4_070_908_800_000 });

describe('expiry and grace choices', () => {
  it('gives whole days of lifetime, or none', () => {
    const created = at('2025-01-31T10:00:00.000Z');
    expect(expiryFor(created, 'never')).toBeNull();
    expect(expiryFor(created, '30')).toEqual(at('2025-03-02T10:00:00.000Z'));
    expect(expiryFor(created, '90')?.getTime()).toBe(created.getTime() + 90 * DAY);
    expect(expiryFor(created, '365')?.getTime()).toBe(created.getTime() + 365 * DAY);
  });

  it('ends a grace period at the roll, an hour or a day later', () => {
    const rolled = at('2025-06-01T12:00:00.000Z');
    expect(graceEndFor(rolled, 'none')).toEqual(rolled);
    expect(graceEndFor(rolled, '1h')).toEqual(at('2025-06-01T13:00:00.000Z'));
    expect(graceEndFor(rolled, '24h')).toEqual(at('2025-06-02T12:00:00.000Z'));
  });

  it('gives a successor the lifetime of the key it replaces, from the roll', () => {
    const creationTime = at('2025-01-01T00:00:00.000Z');
    const rolled = at('2025-02-01T00:00:00.000Z');
    expect(successorExpiry({ creationTime, expiresAt: null }, rolled)).toBeNull();
    expect(successorExpiry({ creationTime, expiresAt: expiryFor(creationTime, '90') }, rolled)).toEqual(
      expiryFor(rolled, '90'),
    );
  });
});

describe('keyStateAt', () => {
  const now = at('2025-05-10T08:00:00.000Z');
  const before = at('2025-05-10T07:59:59.999Z');
  const after = at('2025-05-10T08:00:00.001Z');

  it('tells active, retiring, expired and revoked apart, to the millisecond', () => {
    expect(keyStateAt({ revokedAt: null, expiresAt: null }, now)).toBe('active');
    expect(keyStateAt({ revokedAt: null, expiresAt: after }, now)).toBe('active');
    expect(keyStateAt({ revokedAt: null, expiresAt: now }, now)).toBe('expired');
    expect(keyStateAt({ revokedAt: after, expiresAt: null }, now)).toBe('retiring');
    expect(keyStateAt({ revokedAt: now, expiresAt: null }, now)).toBe('revoked');
    expect(keyStateAt({ revokedAt: before, expiresAt: after }, now)).toBe('revoked');
  });

  it('keeps whichever came first of a revocation and an expiry', () => {
    expect(keyStateAt({ revokedAt: before, expiresAt: now }, after)).toBe('revoked');
    expect(keyStateAt({ revokedAt: now, expiresAt: before }, after)).toBe('expired');
  });

  it('a key works exactly until the earlier of its revocation and expiry (property)', () => {
    fc.assert(
      fc.property(
        fc.option(instant, { nil: null }),
        fc.option(instant, { nil: null }),
        instant,
        (revoked, expires, time) => {
          const key = {
            revokedAt: revoked === null ? null : new Date(revoked),
            expiresAt: expires === null ? null : new Date(expires),
          };
          const end = Math.min(revoked ?? Infinity, expires ?? Infinity);
          expect(keyWorksAt(key, new Date(time))).toBe(time < end);
        },
      ),
    );
  });
});

describe('keyEndsSoon', () => {
  const now = at('2025-05-10T00:00:00.000Z');
  it('flags working keys that stop within seven days, and nothing else', () => {
    expect(keyEndsSoon({ revokedAt: null, expiresAt: null }, now)).toBe(false);
    expect(keyEndsSoon({ revokedAt: null, expiresAt: new Date(now.getTime() + 7 * DAY) }, now)).toBe(true);
    expect(keyEndsSoon({ revokedAt: null, expiresAt: new Date(now.getTime() + 7 * DAY + 1) }, now)).toBe(
      false,
    );
    expect(keyEndsSoon({ revokedAt: new Date(now.getTime() + 3_600_000), expiresAt: null }, now)).toBe(true);
    expect(keyEndsSoon({ revokedAt: null, expiresAt: now }, now)).toBe(false);
  });
});

describe('usage days', () => {
  it('buckets an instant into its UTC day, and the next day starts at UTC midnight', () => {
    expect(usageDay(at('2025-03-01T23:59:59.999Z'))).toBe('2025-03-01');
    expect(usageDay(at('2025-03-02T00:00:00.000Z').getTime())).toBe('2025-03-02');
    fc.assert(
      fc.property(instant, (time) => {
        const next = nextUsageDayStart(time);
        expect(next).toBeGreaterThan(time);
        expect(usageDay(next - 1)).toBe(usageDay(time));
        expect(usageDay(next)).not.toBe(usageDay(time));
        expect(new Date(next).toISOString().slice(10)).toBe('T00:00:00.000Z');
      }),
    );
  });

  it('fills the last thirty days oldest first, summing duplicates and dropping older days', () => {
    const now = at('2025-03-05T15:00:00.000Z');
    const window = usageWindow(
      [
        { day: '2025-03-05', requests: 5, limited: 1 },
        { day: '2025-03-05', requests: 2, limited: 0 },
        { day: '2025-02-04', requests: 9, limited: 9 },
        { day: '2025-02-03', requests: 100, limited: 0 },
      ],
      now,
    );
    expect(window).toHaveLength(KEY_USAGE_DAYS);
    expect(window[0]).toEqual({ day: '2025-02-04', requests: 9, limited: 9 });
    expect(window[29]).toEqual({ day: '2025-03-05', requests: 7, limited: 1 });
    expect(window[1]).toEqual({ day: '2025-02-05', requests: 0, limited: 0 });
    expect(usageTotals(window)).toEqual({ requests: 16, limited: 10 });
  });

  it('the window always holds consecutive days ending today (property)', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 1, max: 60 }), (time, days) => {
        const window = usageWindow([], new Date(time), days);
        expect(window).toHaveLength(days);
        expect(window.at(-1)?.day).toBe(usageDay(time));
        window.slice(1).forEach((entry, index) => {
          const previous = window[index]?.day ?? '';
          expect(Date.parse(entry.day) - Date.parse(previous)).toBe(DAY);
        });
      }),
    );
  });
});
