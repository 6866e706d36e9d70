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

export function snapshotCpu(workerPids: ReadonlyArray<number>): CpuSnapshot | undefined {
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
    const part = partOf(pid, workerPids);
    const ticks = part === undefined ? undefined : processTicks(pid);
    if (part !== undefined && ticks !== undefined) {
      processes.set(pid, { part, seconds: ticks / TICKS_PER_SECOND });
    }
  }
  return { busySeconds: busyTicks / TICKS_PER_SECOND, processes };
}

/** One line: CPU seconds per part between two snapshots, and how busy the whole machine was. */
export function describeCpu(before: CpuSnapshot, after: CpuSnapshot, wallSeconds: number): string {
  // Per process, so one that exited meanwhile (a closed database connection) costs nothing negative.
  const byPart = new Map<string, number>();
  for (const [pid, { part, seconds }] of after.processes) {
    const spent = seconds - (before.processes.get(pid)?.seconds ?? 0);
    byPart.set(part, (byPart.get(part) ?? 0) + spent);
  }
  const parts = [...byPart].map(([part, seconds]) => `${part} ${seconds.toFixed(2)}`);
  const busy = after.busySeconds - before.busySeconds;
  const capacity = availableParallelism() * wallSeconds;
  return (
    `cpu seconds: ${parts.join(' · ')} · machine busy ${busy.toFixed(2)} of ${capacity.toFixed(2)} ` +
    `(${availableParallelism()} cores × ${wallSeconds.toFixed(2)} s)`
  );
}

function partOf(pid: number, workerPids: ReadonlyArray<number>): string | undefined {
  if (pid === process.pid) return 'producer';
  if (workerPids.includes(pid)) return 'worker';
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
