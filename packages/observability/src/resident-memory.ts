import { readFileSync } from 'node:fs';

/**
 * This process's peak resident set, in MB: Linux's VmHWM, the high-water mark of the process's own
 * memory. `process.resourceUsage().maxRSS` is not that: Linux carries it across `exec`, so a process
 * started by a large parent (a benchmark holding gigabytes) reports the parent's size as its own peak.
 * Elsewhere than Linux, maxRSS is what there is.
 */
export function peakResidentMegabytes(): number {
  try {
    const kilobytes = vmHwmKilobytes(readFileSync('/proc/self/status', 'utf8'));
    if (kilobytes !== undefined) return Math.round(kilobytes / 1024);
  } catch {
    // No /proc: not Linux.
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** The `VmHWM:  123456 kB` line of /proc/<pid>/status, in kB; undefined when absent. */
export function vmHwmKilobytes(status: string): number | undefined {
  for (const line of status.split('\n')) {
    if (!line.startsWith('VmHWM:')) continue;
    const [amount, unit] = line.slice('VmHWM:'.length).trim().split(' ');
    const kilobytes = Number(amount);
    return unit === 'kB' && Number.isFinite(kilobytes) ? kilobytes : undefined;
  }
  return undefined;
}
