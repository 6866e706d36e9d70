import { readFileSync } from 'node:fs';

/** The memory lines of /proc/<pid>/status a reader may ask for: the resident set now and its peak. */
export type StatusMemoryField = 'VmRSS' | 'VmHWM';

/**
 * This process's peak resident set, in MB: Linux's VmHWM, the high-water mark of the process's own
 * memory. `process.resourceUsage().maxRSS` is not that: Linux carries it across `exec`, so a process
 * started by a large parent (a benchmark holding gigabytes) reports the parent's size as its own peak.
 * Elsewhere than Linux, maxRSS is what there is.
 */
export function peakResidentMegabytes(): number {
  const kilobytes = processMemoryKilobytes('self', 'VmHWM');
  return Math.round((kilobytes ?? process.resourceUsage().maxRSS) / 1024);
}

/** One memory line of a process's /proc status (`self` or a pid), in kB; undefined without /proc or the process. */
export function processMemoryKilobytes(pid: number | 'self', field: StatusMemoryField): number | undefined {
  try {
    return statusKilobytes(readFileSync(`/proc/${pid}/status`, 'utf8'), field);
  } catch {
    return undefined;
  }
}

/** A `VmHWM:  123456 kB` line of a /proc/<pid>/status text, in kB; undefined when absent. */
export function statusKilobytes(status: string, field: StatusMemoryField): number | undefined {
  for (const line of status.split('\n')) {
    if (!line.startsWith(`${field}:`)) continue;
    const [amount, unit] = line
      .slice(field.length + 1)
      .trim()
      .split(' ');
    const kilobytes = Number(amount);
    return unit === 'kB' && Number.isFinite(kilobytes) ? kilobytes : undefined;
  }
  return undefined;
}
