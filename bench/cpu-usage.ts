import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * Where the CPU time of a benchmark phase went, per part of the system, from Linux's /proc: on a small
 * machine every part (producer, workers, PostgreSQL, Elasticsearch, Redis) competes for the same cores,
 * so a throughput figure means little without it. Elsewhere (no /proc) snapshots are undefined.
 */
export type CpuSnapshot = {
  /** Every core's user, nice, system, irq and softirq time so far: work done here, steal excluded. */
  busySeconds: number;
  /** Time the hypervisor gave this machine's virtual cores to others: nobody's work here. */
  stealSeconds: number;
  /** Idle time with a disk read or write outstanding. */
  iowaitSeconds: number;
  /** CPU seconds so far of each process of interest, by pid. */
  processes: Map<number, { part: string; seconds: number }>;
};

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture Node runs on

/**
 * `childPids` are the benchmark's own child processes (named `names.child`); this process is
 * `names.self`; PostgreSQL, Elasticsearch and Redis are found by their command names.
 */
export function snapshotCpu(
  childPids: ReadonlyArray<number>,
  names: { self: string; child: string } = { self: 'producer', child: 'worker' },
): CpuSnapshot | undefined {
  let cpuLine: string;
  try {
    cpuLine = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  } catch {
    return undefined;
  }
  const machine = parseCpuLine(cpuLine);
  const processes: CpuSnapshot['processes'] = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const part = partOf(pid, childPids, names);
    const ticks = part === undefined ? undefined : processTicks(pid);
    if (part !== undefined && ticks !== undefined) {
      processes.set(pid, { part, seconds: ticks / TICKS_PER_SECOND });
    }
  }
  return {
    busySeconds: machine.busyTicks / TICKS_PER_SECOND,
    stealSeconds: machine.stealTicks / TICKS_PER_SECOND,
    iowaitSeconds: machine.iowaitTicks / TICKS_PER_SECOND,
    processes,
  };
}

/**
 * The first line of /proc/stat, "cpu user nice system idle iowait irq softirq steal guest guest_nice",
 * in ticks. Busy is the work done on this machine's cores; steal is kept apart, so a noisy neighbour
 * on the host shows as steal and never as anyone's work (guest time is already inside user).
 */
export function parseCpuLine(line: string): { busyTicks: number; stealTicks: number; iowaitTicks: number } {
  const [user, nice, system, , iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((field) => Number(field) || 0);
  return {
    busyTicks: (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0),
    stealTicks: steal ?? 0,
    iowaitTicks: iowait ?? 0,
  };
}

/**
 * CPU seconds each part spent between two snapshots (process CPU: utime + stime from /proc/<pid>/stat,
 * which counts only time the process really ran, so steal is excluded by construction), the whole
 * machine's busy seconds (steal excluded), and the steal and iowait seconds of all cores together.
 */
export type CpuUsage = {
  byPart: Map<string, number>;
  busySeconds: number;
  stealSeconds: number;
  iowaitSeconds: number;
};

export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): CpuUsage {
  // Per process, so one that exited meanwhile (a closed database connection) costs nothing negative.
  const byPart = new Map<string, number>();
  for (const [pid, { part, seconds }] of after.processes) {
    const spent = seconds - (before.processes.get(pid)?.seconds ?? 0);
    byPart.set(part, (byPart.get(part) ?? 0) + spent);
  }
  return {
    byPart,
    busySeconds: after.busySeconds - before.busySeconds,
    stealSeconds: after.stealSeconds - before.stealSeconds,
    iowaitSeconds: after.iowaitSeconds - before.iowaitSeconds,
  };
}

/** The sum of several phases' usage (a benchmark that alternates its sides). */
export function addCpu(total: CpuUsage, usage: CpuUsage): CpuUsage {
  const byPart = new Map(total.byPart);
  for (const [part, seconds] of usage.byPart) byPart.set(part, (byPart.get(part) ?? 0) + seconds);
  return {
    byPart,
    busySeconds: total.busySeconds + usage.busySeconds,
    stealSeconds: total.stealSeconds + usage.stealSeconds,
    iowaitSeconds: total.iowaitSeconds + usage.iowaitSeconds,
  };
}

export const NO_CPU: CpuUsage = { byPart: new Map(), busySeconds: 0, stealSeconds: 0, iowaitSeconds: 0 };

/**
 * Runs a phase of requests to the API process `apiPid`, and reads where the CPU went meanwhile: this
 * process (the client), the API, the engines, steal. On two shared cores a throughput ratio is a CPU budget.
 */
export async function measureClientPhase<Run>(
  apiPid: number | undefined,
  run: () => Promise<Run>,
): Promise<{ run: Run; cpu: CpuUsage }> {
  const snapshot = () => snapshotCpu(apiPid === undefined ? [] : [apiPid], { self: 'client', child: 'api' });
  const before = snapshot();
  const result = await run();
  const after = snapshot();
  return { run: result, cpu: before && after ? cpuBetween(before, after) : NO_CPU };
}

/**
 * One line: CPU seconds per part, how busy the whole machine was over `wallSeconds` (steal excluded),
 * and the steal and iowait seconds beside it.
 */
export function formatCpu(usage: CpuUsage, wallSeconds: number, cores = availableParallelism()): string {
  const parts = [...usage.byPart].map(([part, seconds]) => `${part} ${seconds.toFixed(2)}`);
  // Processes that exited before the second snapshot (a child that finished, the database backends of
  // its connections) and everything else on the machine.
  const named = [...usage.byPart.values()].reduce((sum, seconds) => sum + seconds, 0);
  parts.push(`other ${Math.max(0, usage.busySeconds - named).toFixed(2)}`);
  const capacity = cores * wallSeconds;
  return (
    `cpu seconds: ${parts.join(' · ')} · machine busy ${usage.busySeconds.toFixed(2)} of ${capacity.toFixed(2)} ` +
    `(${cores} cores × ${wallSeconds.toFixed(2)} s) · steal ${usage.stealSeconds.toFixed(2)} · ` +
    `iowait ${usage.iowaitSeconds.toFixed(2)}`
  );
}

/** One line: CPU seconds per part between two snapshots, and how busy the whole machine was. */
export function describeCpu(before: CpuSnapshot, after: CpuSnapshot, wallSeconds: number): string {
  return formatCpu(cpuBetween(before, after), wallSeconds);
}

function partOf(
  pid: number,
  childPids: ReadonlyArray<number>,
  names: { self: string; child: string },
): string | undefined {
  if (pid === process.pid) return names.self;
  if (childPids.includes(pid)) return names.child;
  const name = commandName(pid);
  if (name === 'postgres') return 'postgresql';
  if (name === 'java') return 'elasticsearch';
  if (name === 'redis-server') return 'redis';
  return undefined;
}

function commandName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined; // exited meanwhile
  }
}

/** CPU seconds (user + system) a process has run so far; undefined once it has exited. */
export function processCpuSeconds(pid: number): number | undefined {
  const ticks = processTicks(pid);
  return ticks === undefined ? undefined : ticks / TICKS_PER_SECOND;
}

function processTicks(pid: number): number | undefined {
  try {
    return parseProcessTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // exited meanwhile
  }
}

/**
 * A process's utime + stime from its /proc/<pid>/stat line: ticks it actually ran on a core, so time
 * stolen by the hypervisor is never in it.
 */
export function parseProcessTicks(stat: string): number {
  // Fields after the parenthesised command name (which may itself hold spaces and parentheses);
  // utime and stime are the 12th and 13th of them.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** The fastest `cpuSeconds` of work can run here: spread over every core, none ever idle. */
export function wallSecondsOnAllCores(cpuSeconds: number): number {
  return cpuSeconds / availableParallelism();
}
