import { describe, expect, it } from 'vitest';
import {
  formatStoreFigures,
  storeFiguresByDecile,
  type StoreSample,
} from '../../bench/store-growth-figures.js';

const at = (seconds: number, stored: number, rest: Partial<StoreSample> = {}): StoreSample => ({
  seconds,
  stored,
  walBytes: 0,
  walFpi: 0,
  checkpoints: 0,
  backendWrites: 0,
  blocksRead: 0,
  blocksHit: 0,
  autovacuums: 0,
  ...rest,
});

describe('store figures per tenth of a long ingest', () => {
  it('divides each tenth’s counter growth by the events it stored', () => {
    const baseline = at(0, 0, { walBytes: 1_000, walFpi: 10, checkpoints: 3, blocksHit: 50 });
    const samples = [
      at(5, 50, { walBytes: 21_000, walFpi: 20, checkpoints: 3, blocksRead: 1, blocksHit: 100 }),
      at(10, 100, {
        walBytes: 51_000,
        walFpi: 60,
        checkpoints: 4,
        backendWrites: 25,
        blocksRead: 5,
        blocksHit: 146,
        autovacuums: 1,
      }),
    ];
    const [first, second] = storeFiguresByDecile(baseline, samples, 100);
    // 50 events in 5 s after the baseline; 50 more in the next 5 s.
    expect(first).toMatchObject({ decile: 5, stored: 50, eventsPerSecond: 10, walBytesPerEvent: 400 });
    expect(first?.fpiPerEvent).toBeCloseTo(0.2);
    expect(first?.checkpoints).toBe(0);
    expect(first?.readsPerEvent).toBeCloseTo(0.02);
    expect(first?.readShare).toBeCloseTo(1 / 51);
    expect(second).toMatchObject({
      decile: 10,
      stored: 100,
      walBytesPerEvent: 600,
      checkpoints: 1,
      autovacuums: 1,
    });
    expect(second?.fpiPerEvent).toBeCloseTo(0.8);
    expect(second?.backendWritesPerEvent).toBeCloseTo(0.5);
    expect(second?.readShare).toBeCloseTo(4 / 50);
  });

  it('ends each tenth at the first sample that stored it whole, ignoring the wait after the last event', () => {
    const samples = [at(1, 3), at(2, 10), at(3, 15), at(4, 20), at(5, 100), at(60, 100, { walBytes: 9_999 })];
    const figures = storeFiguresByDecile(at(0, 0), samples, 100);
    // One sample jumped from 20 to 100: the tenths it completed together count as the last.
    expect(figures.map((figure) => [figure.decile, figure.stored])).toEqual([
      [1, 10],
      [2, 20],
      [10, 100],
    ]);
    // The tenth of 20: 10 events from the sample at 10 in 2 s.
    expect(figures[1]?.eventsPerSecond).toBe(5);
    expect(figures[2]?.eventsPerSecond).toBe(80);
    expect(figures[2]?.walBytesPerEvent).toBe(0);
  });

  it('shows a store that slows as it grows: the last tenth slower, more WAL per event', () => {
    const samples = Array.from({ length: 10 }, (_, index) => {
      const stored = (index + 1) * 100;
      // Each tenth takes longer than the one before and writes more WAL per event.
      const seconds = ((index + 1) * (index + 2)) / 2;
      return at(seconds, stored, { walBytes: stored * 100 + index * index * 1_000 });
    });
    const figures = storeFiguresByDecile(at(0, 0), samples, 1_000);
    expect(figures).toHaveLength(10);
    expect(figures[0]?.eventsPerSecond).toBe(100);
    expect(figures[9]?.eventsPerSecond).toBe(10);
    expect(figures[9]?.walBytesPerEvent).toBeGreaterThan(figures[0]?.walBytesPerEvent ?? Infinity);
  });

  it('prints one line per tenth', () => {
    const figures = storeFiguresByDecile(at(0, 0), [at(2, 1_000, { walFpi: 500 })], 1_000);
    expect(figures).toHaveLength(1);
    const lines = formatStoreFigures(figures);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('0.500');
    expect(lines[1]).toMatch(/^\s+10\s+1000\s+500\s/);
  });
});
