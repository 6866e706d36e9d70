import { describe, expect, it } from 'vitest';
import { loadConfig } from '@directory/config';
import { attemptError, decideAfterAttempt, disabledReason } from '../src/outcome.js';
import { attemptsAllowed, retryDelay } from '../src/retry-schedule.js';

describe('retry schedule', () => {
  const delays = loadConfig({}).WEBHOOK_RETRY_DELAYS_MS;

  it('follows the configured delays, one attempt more than delays, about a day in all', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelay(attempt, delays))).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000,
    ]);
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(23 * 3_600_000);
    expect(total).toBeLessThan(25 * 3_600_000);
    expect(attemptsAllowed(delays)).toBe(8);
  });

  it('keeps the last delay past the list, and none without a list', () => {
    expect(retryDelay(9, [10, 20])).toBe(20);
    expect(retryDelay(0, [10, 20])).toBe(10);
    expect(retryDelay(1, [])).toBe(0);
    expect(attemptsAllowed([])).toBe(1);
  });
});

describe('after an attempt', () => {
  const since = new Date('2026-11-27T10:00:00.000Z');
  const at = (ms: number) => new Date(since.getTime() + ms);
  const decide = (statusCode: number | null, elapsedMs: number, lastAttempt = false) =>
    decideAfterAttempt({
      statusCode,
      failingSince: since,
      now: at(elapsedMs),
      disableAfterMs: 86_400_000,
      lastAttempt,
    });

  it('delivers on 2xx only (a redirect is a failure: none is followed)', () => {
    expect(decide(200, 0)).toBe('delivered');
    expect(decide(204, 90_000_000)).toBe('delivered');
    expect(decide(299, 0)).toBe('delivered');
    expect(decide(301, 0)).toBe('retry');
    expect(decide(199, 0)).toBe('retry');
    expect(decide(500, 0)).toBe('retry');
    expect(decide(null, 0)).toBe('retry');
  });

  it('disables an endpoint failing for the whole window, even before the last attempt', () => {
    expect(decide(500, 86_399_999)).toBe('retry');
    expect(decide(500, 86_400_000)).toBe('disable');
    expect(decide(null, 86_400_000, true)).toBe('disable');
  });

  it('fails the delivery after its last attempt when the endpoint has not failed that long', () => {
    expect(decide(503, 1_000, true)).toBe('failed');
  });

  it('says why, briefly', () => {
    expect(disabledReason(since, 'HTTP 500')).toBe('failing since 2026-11-27T10:00:00.000Z: HTTP 500');
    expect(attemptError(500, null)).toBe('HTTP 500');
    expect(attemptError(null, 'ECONNREFUSED')).toBe('ECONNREFUSED');
    expect(attemptError(null, null)).toBe('no answer');
    expect(attemptError(null, 'x'.repeat(900))).toHaveLength(500);
  });
});
