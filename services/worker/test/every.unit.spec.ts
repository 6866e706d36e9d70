import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { every } from '../src/every.js';

describe('every', () => {
  // Runs are timed on a fake clock: the tests advance it instead of waiting.
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'],
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Starts `every` with a task that takes `runMs` of (fake) time; returns when each run started. */
  function startRuns(intervalMs: number, runMs: number, maxBusyShare?: number) {
    const startedAt: number[] = [];
    const task = () => {
      startedAt.push(performance.now());
      return new Promise<void>((resolve) => setTimeout(resolve, runMs));
    };
    const runs = every(intervalMs, task, () => {}, maxBusyShare === undefined ? {} : { maxBusyShare });
    return { startedAt, runs };
  }

  it('runs at once and then every interval, skipping ticks while a run is still going', async () => {
    const { startedAt, runs } = startRuns(100, 250);
    await vi.advanceTimersByTimeAsync(1_000);
    await runs.close({ wait: false });
    // 0 runs until 250; the ticks at 100 and 200 are skipped; 300 runs until 550; 600 until 850; 900.
    expect(startedAt).toEqual([0, 300, 600, 900]);
  });

  it('rests after a slow run so the task takes at most its share of the time', async () => {
    const { startedAt, runs } = startRuns(100, 250, 0.1);
    await vi.advanceTimersByTimeAsync(6_000);
    await runs.close({ wait: false });
    // Each run of 250 ms is followed by 2,250 ms of rest: the next tick after 2,500 runs.
    expect(startedAt).toEqual([0, 2_500, 5_000]);
    const busy = startedAt.length * 250;
    expect(busy / 6_000).toBeLessThanOrEqual(0.13);
  });

  it('keeps the interval when runs are quick', async () => {
    const { startedAt, runs } = startRuns(100, 5, 0.1);
    await vi.advanceTimersByTimeAsync(450);
    await runs.close({ wait: false });
    expect(startedAt).toEqual([0, 100, 200, 300, 400]);
  });

  it('refuses a share outside (0, 1]', () => {
    expect(() =>
      every(
        100,
        () => Promise.resolve(),
        () => {},
        { maxBusyShare: 0 },
      ),
    ).toThrow(RangeError);
    expect(() =>
      every(
        100,
        () => Promise.resolve(),
        () => {},
        { maxBusyShare: 1.5 },
      ),
    ).toThrow(RangeError);
  });
});
