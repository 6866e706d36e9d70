/**
 * What each test project cost the machine: its wall time (first file started to last file ended) and
 * the cores busy meanwhile, from the machine's CPU counters read at those moments. vitest runs the
 * projects one after another (files of one project side by side), so the windows do not overlap, and a
 * project's busy cores are the suite's own plus whatever else ran (CI's static checks, niced apart).
 */

/** The machine's CPU time so far, in seconds: at normal priority and niced. */
export type CpuCounters = { normal: number; niced: number };

/** A moment of a project's run: a file starting or ending, with the clock and the counters then. */
export type ProjectMark = { project: string; seconds: number; cpu: CpuCounters };

export type ProjectCpu = {
  project: string;
  /** First file's start to last file's end. */
  seconds: number;
  /** Average busy cores over the window, at normal priority and niced. */
  normalCores: number;
  nicedCores: number;
};

/** Each project's window from its marks, in the order the projects started. */
export function projectCpu(marks: ReadonlyArray<ProjectMark>): ProjectCpu[] {
  const windows = new Map<string, { first: ProjectMark; last: ProjectMark }>();
  for (const mark of marks) {
    const window = windows.get(mark.project);
    if (window === undefined) windows.set(mark.project, { first: mark, last: mark });
    else {
      if (mark.seconds < window.first.seconds) window.first = mark;
      if (mark.seconds >= window.last.seconds) window.last = mark;
    }
  }
  return [...windows.values()]
    .sort((a, b) => a.first.seconds - b.first.seconds)
    .map(({ first, last }) => {
      const seconds = last.seconds - first.seconds;
      const cores = (used: number) => (seconds > 0 ? used / seconds : 0);
      return {
        project: first.project,
        seconds,
        normalCores: cores(last.cpu.normal - first.cpu.normal),
        nicedCores: cores(last.cpu.niced - first.cpu.niced),
      };
    });
}

/**
 * The machine's counters from the first line of /proc/stat (`cpu  user nice system idle iowait irq softirq
 * steal …`, in clock ticks): normal priority is user + system + irq + softirq + steal, niced is nice.
 */
export function parseProcStat(text: string, ticksPerSecond: number): CpuCounters | undefined {
  const line = text.split('\n', 1)[0] ?? '';
  const fields = line.trim().split(/\s+/);
  if (fields[0] !== 'cpu' || fields.length < 9) return undefined;
  const [user, nice, system, , , irq, softirq, steal] = fields.slice(1, 9).map(Number);
  const values = [user, nice, system, irq, softirq, steal];
  if (values.some((value) => value === undefined || !Number.isFinite(value))) return undefined;
  const total = (user ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
  return { normal: total / ticksPerSecond, niced: (nice ?? 0) / ticksPerSecond };
}

/** One line a project: `int  412.3 s  busy 1.93 cores (niced 0.02)`. */
export function formatProjectCpu(rows: ReadonlyArray<ProjectCpu>): string[] {
  const width = Math.max(0, ...rows.map((row) => row.project.length));
  return rows.map(
    (row) =>
      `${row.project.padEnd(width)}  ${row.seconds.toFixed(1).padStart(7)} s  busy ` +
      `${(row.normalCores + row.nicedCores).toFixed(2)} cores (normal priority ${row.normalCores.toFixed(2)}, ` +
      `niced ${row.nicedCores.toFixed(2)})`,
  );
}
