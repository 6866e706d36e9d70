import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * Where the CPU time of a benchmark phase went, per part of the system, from Linux's /proc: on a small
 * machine every part (producer, workers, PostgreSQL, Elasticsearch, Redis) competes for the same cores,
 * so a throughput figure means little without it. Elsewhere (no /proc) snapshots are undefined.
 */
export type CpuSnapshot = {
  busySeconds: number;
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
  // cpu user nice system idle iowait irq softirq steal
  const [user, nice, system, , , irq, softirq, steal] = cpuLine.trim().split(/\s+/).slice(1).map(Number);
  const busyTicks = [user, nice, system, irq, softirq, steal].reduce<number>((sum, v) => sum + (v ?? 0), 0);
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
  return { busySeconds: busyTicks / TICKS_PER_SECOND, processes };
}

/** CPU seconds each part spent between two snapshots, and the whole machine's busy seconds. */
export type CpuUsage = { byPart: Map<string, number>; busySeconds: number };

export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): CpuUsage {
  // Per process, so one that exited meanwhile (a closed database connection) costs nothing negative.
  const byPart = new Map<string, number>();
  for (const [pid, { part, seconds }] of after.processes) {
    const spent = seconds - (before.processes.get(pid)?.seconds ?? 0);
    byPart.set(part, (byPart.get(part) ?? 0) + spent);
  }
  return { byPart, busySeconds: after.busySeconds - before.busySeconds };
}

/** The sum of several phases' usage (a benchmark that alternates its sides). */
export function addCpu(total: CpuUsage, usage: CpuUsage): CpuUsage {
  const byPart = new Map(total.byPart);
  for (const [part, seconds] of usage.byPart) byPart.set(part, (byPart.get(part) ?? 0) + seconds);
  return { byPart, busySeconds: total.busySeconds + usage.busySeconds };
}

export const NO_CPU: CpuUsage = { byPart: new Map(), busySeconds: 0 };

/** One line: CPU seconds per part, and how busy the whole machine was over `wallSeconds`. */
export function formatCpu(usage: CpuUsage, wallSeconds: number): string {
  const parts = [...usage.byPart].map(([part, seconds]) => `${part} ${seconds.toFixed(2)}`);
  // Processes that exited before the second snapshot (a child that finished, the database backends of
  // its connections) and everything else on the machine.
  const named = [...usage.byPart.values()].reduce((sum, seconds) => sum + seconds, 0);
  parts.push(`other ${Math.max(0, usage.busySeconds - named).toFixed(2)}`);
  const capacity = availableParallelism() * wallSeconds;
  return (
    `cpu seconds: ${parts.join(' · ')} · machine busy ${usage.busySeconds.toFixed(2)} of ${capacity.toFixed(2)} ` +
    `(${availableParallelism()} cores × ${wallSeconds.toFixed(2)} s)`
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
  if (name === 'postgres') return 'postgres';
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

function processTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** The fastest `cpuSeconds` of work can run here: spread over every core, none ever idle. */
export function wallSecondsOnAllCores(cpuSeconds: number): number {
  return cpuSeconds / availableParallelism();
}
