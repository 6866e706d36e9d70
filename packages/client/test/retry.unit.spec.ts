import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, isRetryableStatus, parseRetryAfter } from '../src/retry.js';

const NOW = Date.parse('2026-11-27T07:00:00Z');

describe('parseRetryAfter', () => {
  it('reads whole seconds as milliseconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('2', NOW)).toBe(2_000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
  });

  it('reads an HTTP date as the time left until it, a past date as now', () => {
    expect(parseRetryAfter('Fri, 27 Nov 2026 07:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Fri, 27 Nov 2026 06:59:00 GMT', NOW)).toBe(0);
  });

  it('is undefined when absent or unreadable, so the caller backs off on its own', () => {
    for (const value of [null, undefined, '', '  ', '-1', '1.5', 'soon', '12abc', 'x'.repeat(1000)]) {
      expect(parseRetryAfter(value, NOW), String(value)).toBeUndefined();
    }
  });
});

describe('backoffDelay', () => {
  const options = { baseDelayMs: 100, maxDelayMs: 5_000 };

  it('stays between half the ceiling and the ceiling, which doubles per retry up to the maximum', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, dice) => {
          const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
          const delay = backoffDelay(retry, options, () => dice);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
          expect(delay).toBeLessThanOrEqual(ceiling);
        },
      ),
    );
  });

  it('grows with each retry and is capped', () => {
    const highest = (retry: number) => backoffDelay(retry, options, () => 0.999999);
    expect([0, 1, 2, 3].map(highest)).toEqual([100, 200, 400, 800]);
    expect(highest(20)).toBe(5_000);
  });
});

describe('isRetryableStatus', () => {
  it('retries 429 and 503 only', () => {
    expect([429, 503].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 431, 500, 502].some(isRetryableStatus)).toBe(false);
  });
});
