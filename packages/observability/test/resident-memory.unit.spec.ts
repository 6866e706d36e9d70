import { describe, expect, it } from 'vitest';
import { peakResidentMegabytes, processMemoryKilobytes, statusKilobytes } from '../src/resident-memory.js';

describe('statusKilobytes', () => {
  const status = 'Name:\tnode\nVmPeak:\t 1234568 kB\nVmHWM:\t  228340 kB\nVmRSS:\t  201000 kB\n';

  it('reads the high-water mark and the resident set of a /proc status text', () => {
    expect(statusKilobytes(status, 'VmHWM')).toBe(228_340);
    expect(statusKilobytes(status, 'VmRSS')).toBe(201_000);
  });

  it('answers undefined without the line or with another unit', () => {
    expect(statusKilobytes('Name:\tnode\nVmRSS:\t 1 kB\n', 'VmHWM')).toBeUndefined();
    expect(statusKilobytes('VmHWM:\t 3 MB\n', 'VmHWM')).toBeUndefined();
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

describe('processMemoryKilobytes', () => {
  it('reads a live process and answers undefined for one that does not exist', () => {
    expect(processMemoryKilobytes(process.pid, 'VmRSS')).toBeGreaterThan(0);
    expect(processMemoryKilobytes(2 ** 30, 'VmRSS')).toBeUndefined();
  });
});
