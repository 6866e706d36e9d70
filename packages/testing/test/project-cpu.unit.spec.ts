import { describe, expect, it } from 'vitest';
import { formatProjectCpu, parseProcStat, projectCpu } from '../src/project-cpu.js';

describe('projectCpu', () => {
  it('makes one window a project from its first start to its last end, with the busy cores meanwhile', () => {
    const rows = projectCpu([
      { project: 'unit', seconds: 10, cpu: { normal: 100, niced: 0 } },
      { project: 'unit', seconds: 12, cpu: { normal: 103, niced: 1 } },
      { project: 'unit', seconds: 30, cpu: { normal: 140, niced: 2 } },
      { project: 'integration', seconds: 31, cpu: { normal: 141, niced: 2 } },
      { project: 'integration', seconds: 131, cpu: { normal: 321, niced: 12 } },
    ]);
    expect(rows).toEqual([
      { project: 'unit', seconds: 20, normalCores: 2, nicedCores: 0.1 },
      { project: 'integration', seconds: 100, normalCores: 1.8, nicedCores: 0.1 },
    ]);
  });

  it('orders projects by their start whatever the order of the marks, and a one-mark project costs 0', () => {
    const rows = projectCpu([
      { project: 'cluster', seconds: 50, cpu: { normal: 10, niced: 0 } },
      { project: 'faults', seconds: 5, cpu: { normal: 5, niced: 0 } },
      { project: 'faults', seconds: 1, cpu: { normal: 1, niced: 0 } },
    ]);
    expect(rows.map((row) => [row.project, row.seconds, row.normalCores])).toEqual([
      ['faults', 4, 1],
      ['cluster', 0, 0],
    ]);
  });
});

describe('parseProcStat', () => {
  it('reads the first line: user, system, irq, softirq and steal at normal priority; nice apart', () => {
    const text = 'cpu  1000 50 300 90000 40 10 20 5 0 0\ncpu0 500 25 150 45000 20 5 10 2 0 0\n';
    expect(parseProcStat(text, 100)).toEqual({ normal: 13.35, niced: 0.5 });
  });

  it('answers undefined for text that is not /proc/stat', () => {
    expect(parseProcStat('', 100)).toBeUndefined();
    expect(parseProcStat('cpu0 1 2 3 4 5 6 7 8', 100)).toBeUndefined();
    expect(parseProcStat('cpu  1 2 x 4 5 6 7 8', 100)).toBeUndefined();
  });
});

describe('formatProjectCpu', () => {
  it('prints one aligned line a project', () => {
    expect(
      formatProjectCpu([
        { project: 'unit', seconds: 46.04, normalCores: 1.9, nicedCores: 0.05 },
        { project: 'cluster', seconds: 292.5, normalCores: 1.15, nicedCores: 0.6 },
      ]),
    ).toEqual([
      'unit        46.0 s  busy 1.95 cores (normal priority 1.90, niced 0.05)',
      'cluster    292.5 s  busy 1.75 cores (normal priority 1.15, niced 0.60)',
    ]);
  });
});
