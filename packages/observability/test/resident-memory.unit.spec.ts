import { describe, expect, it } from 'vitest';
import { peakResidentMegabytes, vmHwmKilobytes } from '../src/resident-memory.js';

describe('vmHwmKilobytes', () => {
  it('reads the high-water mark of a /proc status text', () => {
    const status = 'Name:\tnode\nVmPeak:\t 1234568 kB\nVmHWM:\t  228340 kB\nVmRSS:\t  201000 kB\n';
    expect(vmHwmKilobytes(status)).toBe(228_340);
  });

  it('answers undefined without the line or with another unit', () => {
    expect(vmHwmKilobytes('Name:\tnode\nVmRSS:\t 1 kB\n')).toBeUndefined();
    expect(vmHwmKilobytes('VmHWM:\t 3 MB\n')).toBeUndefined();
  });
});

describe('peakResidentMegabytes', () => {
  it("is this process's own peak: at least what it holds now, far below a machine's memory", () => {
    const nowMb = process.memoryUsage().rss / 1024 / 1024;
    const peak = peakResidentMegabytes();
    expect(peak).toBeGreaterThanOrEqual(Math.floor(nowMb) - 1);
    expect(peak).toBeLessThan(4_096);
  });
});
