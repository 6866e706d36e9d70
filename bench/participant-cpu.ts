import { readFileSync } from 'node:fs';
import { cpuBetween, snapshotCpu, type CpuSnapshot, type CpuUsage } from './cpu-usage.js';

// Process CPU of every participant of a phase, including processes that exit during it. /proc only
// shows live processes: a bench's child process (the reindex) and the PostgreSQL backends of its
// connections are gone by the second snapshot, and their CPU would count as nobody's. Linux adds the CPU
// of each child a parent has waited for to the parent's own `cutime`/`cstime`: this process waits for
// its children, the postmaster for its backends, so their growth is exactly that CPU.

const TICKS_PER_SECOND = 100; // USER_HZ, as in cpu-usage.ts

/** From a /proc/<pid>/stat line: the parent pid and the CPU ticks of children that exited and were waited for. */
export function parseStatLine(stat: string): { ppid: number; reapedChildrenTicks: number } {
  // Fields after the parenthesised command name (which may hold spaces and parentheses): ppid is the
  // 2nd of them, cutime and cstime the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), reapedChildrenTicks: Number(fields[13]) + Number(fields[14]) };
}

function readStat(pid: number): { ppid: number; reapedChildrenTicks: number } | undefined {
  try {
    return parseStatLine(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // exited meanwhile, or no /proc
  }
}

/**
 * The postmasters among PostgreSQL's processes: those whose parent is not one of them. A machine may
 * run several clusters (the shared server and a bench's private one), and with pids wrapping at 32,768
 * their order says nothing about which is which.
 */
export function postmastersOf(
  postgresPids: ReadonlyArray<number>,
  parentOf: (pid: number) => number | undefined,
): number[] {
  const all = new Set(postgresPids);
  return postgresPids.filter((pid) => {
    const parent = parentOf(pid);
    return parent !== undefined && !all.has(parent);
  });
}

export type ParticipantSnapshot = {
  cpu: CpuSnapshot;
  /** Seconds of this process' exited children. */
  reapedBySelf: number;
  /** Seconds of each postmaster's exited backends, by the postmaster's pid. */
  reapedByPostmasters: Map<number, number>;
  /** The parent of each live PostgreSQL process, by its pid. */
  postgresParents: Map<number, number>;
};

function reapedSeconds(stat: { reapedChildrenTicks: number } | undefined): number {
  return (stat?.reapedChildrenTicks ?? 0) / TICKS_PER_SECOND;
}

export function snapshotParticipants(
  childPids: ReadonlyArray<number>,
  names: { self: string; child: string },
): ParticipantSnapshot | undefined {
  const cpu = snapshotCpu(childPids, names);
  if (cpu === undefined) return undefined;
  // Each PostgreSQL process' stat read once: its parent finds the postmasters, and a postmaster's own
  // line holds its exited backends' CPU.
  const postgresStats = new Map(
    [...cpu.processes]
      .filter(([, { part }]) => part === POSTGRESQL_PART)
      .map(([pid]) => [pid, readStat(pid)] as const),
  );
  const postmasters = postmastersOf([...postgresStats.keys()], (pid) => postgresStats.get(pid)?.ppid);
  return {
    cpu,
    reapedBySelf: reapedSeconds(readStat(process.pid)),
    reapedByPostmasters: new Map(postmasters.map((pid) => [pid, reapedSeconds(postgresStats.get(pid))])),
    postgresParents: new Map(
      [...postgresStats].flatMap(([pid, stat]) => (stat === undefined ? [] : [[pid, stat.ppid] as const])),
    ),
  };
}

/** The part name cpu-usage.ts gives PostgreSQL's processes. */
export const POSTGRESQL_PART = 'postgresql';

/**
 * CPU per participant between two snapshots: the live processes' as cpu-usage.ts counts them, plus the
 * exited children of this process (counted as `exitedChild`, the part a phase's child process is) and
 * the exited backends of PostgreSQL.
 */
export function participantsBetween(
  before: ParticipantSnapshot,
  after: ParticipantSnapshot,
  exitedChild: string,
): CpuUsage {
  const usage = cpuBetween(before.cpu, after.cpu);
  const byPart = new Map(usage.byPart);
  const add = (part: string, seconds: number) => {
    if (seconds > 0) byPart.set(part, (byPart.get(part) ?? 0) + seconds);
  };
  add(exitedChild, after.reapedBySelf - before.reapedBySelf);
  // Per postmaster, so one started meanwhile counts from zero and one stopped meanwhile counts nothing.
  for (const [pid, seconds] of after.reapedByPostmasters) {
    add(POSTGRESQL_PART, seconds - (before.reapedByPostmasters.get(pid) ?? 0));
  }
  // A backend already running at `before` that exited since is in its postmaster's count whole, with
  // its life before `before` (a connection's earlier work, or what an earlier stretch of the same phase
  // counted live): that part is taken off again.
  for (const [pid, parent] of before.postgresParents) {
    const lived = before.cpu.processes.get(pid)?.seconds ?? 0;
    if (
      !after.cpu.processes.has(pid) &&
      before.reapedByPostmasters.has(parent) &&
      after.reapedByPostmasters.has(parent)
    ) {
      byPart.set(POSTGRESQL_PART, (byPart.get(POSTGRESQL_PART) ?? 0) - lived);
    }
  }
  return { ...usage, byPart };
}

/**
 * The CPU seconds of the given parts together: a phase's participants, not whatever else the machine ran
 * meanwhile (another database's Redis clients, say).
 */
export function participantSeconds(usage: CpuUsage, parts: ReadonlyArray<string>): number {
  return parts.reduce((sum, part) => sum + (usage.byPart.get(part) ?? 0), 0);
}
