import { describe, expect, it } from 'vitest';
import {
  addWal,
  NO_WAL,
  ratioFigure,
  sideFigures,
  walUsageOfExplain,
  type SideRun,
} from '../../bench/places-row-figures.js';

function run(overrides: Partial<SideRun> = {}): SideRun {
  return {
    placeUpdates: 4_000,
    cpuSeconds: 0.2,
    wallSeconds: 0.5,
    walPass: { placeUpdates: 2_000, wal: { records: 20_000, fpi: 10, bytes: 3_000_000 } },
    rowUpdates: 8_000,
    hotUpdates: 2_000,
    vacuumCpuSeconds: 0.06,
    ...overrides,
  };
}

describe('places-row figures', () => {
  it('reads the WAL counters of the top plan node of explain (format json)', () => {
    const rows = [
      {
        'QUERY PLAN': [
          { Plan: { 'Node Type': 'ModifyTable', 'WAL Records': 12, 'WAL FPI': 1, 'WAL Bytes': 9_876 } },
        ],
      },
    ];
    expect(walUsageOfExplain(rows)).toEqual({ records: 12, fpi: 1, bytes: 9_876 });
    // A statement that wrote nothing has no WAL counters at all.
    expect(walUsageOfExplain([{ 'QUERY PLAN': [{ Plan: { 'Node Type': 'Result' } }] }])).toEqual(NO_WAL);
    expect(() => walUsageOfExplain([{ id: 1 }])).toThrow();
  });

  it('adds WAL usage', () => {
    expect(addWal({ records: 1, fpi: 2, bytes: 3 }, { records: 10, fpi: 20, bytes: 30 })).toEqual({
      records: 11,
      fpi: 22,
      bytes: 33,
    });
  });

  it('puts every figure per 1,000 places, the vacuum over every place update it cleans', () => {
    const figures = sideFigures([run(), run({ cpuSeconds: 0.4 }), run({ cpuSeconds: 0.3 })]);
    expect(figures.cpuMsPer1000.median).toBeCloseTo(75);
    expect(figures.cpuMsPer1000.min).toBeCloseTo(50);
    expect(figures.cpuMsPer1000.max).toBeCloseTo(100);
    expect(figures.wallMsPer1000.median).toBeCloseTo(125);
    expect(figures.walBytesPer1000.median).toBeCloseTo(1_500_000);
    expect(figures.walRecordsPer1000.median).toBeCloseTo(10_000);
    expect(figures.walFpiPer1000.median).toBeCloseTo(5);
    expect(figures.vacuumCpuMsPer1000.median).toBeCloseTo(10);
    expect(figures.hotShare.median).toBeCloseTo(0.25);
    expect(() => sideFigures([run({ placeUpdates: 0 })])).toThrow();
  });

  it('pairs the ratio of the sides round by round', () => {
    const ratio = ratioFigure([1, 3, 2], [2, 4, 8]);
    expect(ratio.values).toEqual([0.5, 0.75, 0.25]);
    expect(ratio.median).toBe(0.5);
    expect(() => ratioFigure([1], [1, 2])).toThrow();
  });
});
