import { describe, expect, it } from 'vitest';
import {
  addCpu,
  cpuBetween,
  formatCpu,
  NO_CPU,
  parseCpuLine,
  parseProcessTicks,
  type CpuSnapshot,
} from '../../bench/cpu-usage.js';

describe('parseCpuLine', () => {
  it('counts user, nice, system, irq and softirq as busy, and keeps steal and iowait apart', () => {
    // cpu user nice system idle iowait irq softirq steal guest guest_nice
    expect(parseCpuLine('cpu  1000 20 300 9000 40 5 6 700 0 0')).toEqual({
      busyTicks: 1000 + 20 + 300 + 5 + 6,
      stealTicks: 700,
      iowaitTicks: 40,
    });
  });

  it('reads a short line from an old kernel as no steal', () => {
    expect(parseCpuLine('cpu 10 0 5 100 1 0 0')).toEqual({ busyTicks: 15, stealTicks: 0, iowaitTicks: 1 });
  });
});

describe('parseProcessTicks', () => {
  it('adds utime and stime, even when the command name holds spaces and parentheses', () => {
    const stat = '4242 (node (bench) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 1234 567 0 0 20 0 11 0';
    expect(parseProcessTicks(stat)).toBe(1234 + 567);
  });
});

describe('cpuBetween, addCpu and formatCpu', () => {
  const snapshot = (busy: number, steal: number, iowait: number, worker: number): CpuSnapshot => ({
    busySeconds: busy,
    stealSeconds: steal,
    iowaitSeconds: iowait,
    processes: new Map([
      [1, { part: 'worker', seconds: worker }],
      [2, { part: 'postgresql', seconds: 10 }],
    ]),
  });

  it("gives each part's seconds, the machine's busy seconds and its steal and iowait between two snapshots", () => {
    const usage = cpuBetween(snapshot(100, 5, 1, 2), snapshot(103, 5.5, 1.25, 3.5));
    expect(Object.fromEntries(usage.byPart)).toEqual({ worker: 1.5, postgresql: 0 });
    expect(usage).toMatchObject({ busySeconds: 3, stealSeconds: 0.5, iowaitSeconds: 0.25 });
    const twice = addCpu(addCpu(NO_CPU, usage), usage);
    expect(twice).toMatchObject({ busySeconds: 6, stealSeconds: 1, iowaitSeconds: 0.5 });
    expect(twice.byPart.get('worker')).toBe(3);
  });

  it('prints steal beside the busy seconds, never inside them', () => {
    const usage = cpuBetween(snapshot(100, 5, 1, 2), snapshot(103, 5.5, 1.25, 3.5));
    expect(formatCpu(usage, 2, 2)).toBe(
      'cpu seconds: worker 1.50 · postgresql 0.00 · other 1.50 · machine busy 3.00 of 4.00 ' +
        '(2 cores × 2.00 s) · steal 0.50 · iowait 0.25',
    );
  });
});
