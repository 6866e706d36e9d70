import { describe, expect, it } from 'vitest';
import { cappedBackoffDelay, INGEST_JOB_OPTIONS } from '../src/queue.js';

describe('retry policy for infrastructure errors', () => {
  const options = { baseMs: 1_000, maxMs: 60_000 };
  const noJitter = () => 0;

  it('doubles from the base delay and stops growing at the cap', () => {
    const delays = [1, 2, 3, 4, 6, 7, 8, 50, 10_000].map((attempt) =>
      cappedBackoffDelay(attempt, options, noJitter),
    );
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 32_000, 60_000, 60_000, 60_000, 60_000]);
  });

  it('takes at most a fifth off for jitter, never more than the cap', () => {
    expect(cappedBackoffDelay(3, options, () => 0.999)).toBe(3_201);
    expect(cappedBackoffDelay(100, options, () => 1)).toBe(48_000);
  });

  it('never runs out of attempts and keeps failed jobs for an operator', () => {
    expect(INGEST_JOB_OPTIONS.attempts).toBe(Number.MAX_SAFE_INTEGER);
    expect(INGEST_JOB_OPTIONS.removeOnFail).toBe(false);
  });
});
