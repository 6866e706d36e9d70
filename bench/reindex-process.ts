// The operator's `reindex` command as the benches run it: a process of its own with the heap flags of
// `npm run reindex`, on a bench environment's store and alias, and the CPU of every participant of it.
import { setTimeout as sleep } from 'node:timers/promises';
import { startProcess, type RunningProcess } from '@directory/testing';
import type { BenchEnvironment } from './bench-environment.js';
import { NO_CPU, type CpuUsage } from './cpu-usage.js';
import {
  participantSeconds,
  participantsBetween,
  POSTGRESQL_PART,
  snapshotParticipants,
  type ParticipantSnapshot,
} from './participant-cpu.js';

/** The heap flags of the `npm run reindex` script (package.json). */
export const REINDEX_NODE_OPTIONS = '--max-old-space-size=192 --max-semi-space-size=16';
/**
 * The bench shares the machine with whatever else runs: a slow connect of its processes is waited for,
 * not a failure (the connect timeout bounds no measured work).
 */
export const SLOW_CONNECT_MS = '30000';

/** `reindex [args]` on the environment's store and alias (`--replay` refolds from the event store). */
export function startReindex(
  environment: Pick<BenchEnvironment, 'databaseUrl' | 'alias'>,
  args: string[] = [],
): RunningProcess {
  return startProcess('packages/operator/src/reindex.cli.ts', args, {
    DATABASE_URL: environment.databaseUrl,
    DATABASE_CONNECT_TIMEOUT_MS: SLOW_CONNECT_MS,
    ELASTICSEARCH_INDEX: environment.alias,
    // The cap keeps the process' RSS flat, the 16 MB young generation cuts the replay's garbage
    // collection (docs/benchmarks.md, What was tried).
    NODE_OPTIONS: REINDEX_NODE_OPTIONS,
  });
}

/** A replay's participants besides its own process: the bench (idle but for raw) and the engines. */
export const REPLAY_ENGINES = ['bench', POSTGRESQL_PART, 'elasticsearch'] as const;

/** What the replay floor (bench/replay-floor.cli.ts) prints. */
export type FloorOutput = {
  documents: number;
  events: number;
  seconds: number;
  foldCpuSeconds: number;
  peakRssMb: number;
};

/**
 * The replay's floor as a process of its own, into a throw-away index `<alias>__floor` (deleted after):
 * what it printed, its wall seconds, and the CPU of every participant (`cpuSeconds`: the floor's process
 * and REPLAY_ENGINES, the participants a replay's `cpu_ratio` compares).
 */
export async function runReplayFloor(
  environment: Pick<BenchEnvironment, 'databaseUrl' | 'alias' | 'client' | 'settle'>,
): Promise<{ output: FloorOutput; seconds: number; cpu: CpuUsage; cpuSeconds: number }> {
  const index = `${environment.alias}__floor`;
  await environment.settle();
  const {
    value: output,
    seconds,
    cpu,
  } = await measured('floor', async () => {
    // The same heap flags as the reindex: the same memory cap, the same garbage collection.
    const floor = startProcess('bench/replay-floor.cli.ts', ['--index', index], {
      DATABASE_URL: environment.databaseUrl,
      DATABASE_CONNECT_TIMEOUT_MS: SLOW_CONNECT_MS,
      NODE_OPTIONS: REINDEX_NODE_OPTIONS,
    });
    const exitCode = await floor.exited;
    if (exitCode !== 0) throw new Error(`the floor failed:\n${floor.output()}`);
    return JSON.parse(floor.output().trim().split('\n').at(-1) ?? '') as FloorOutput;
  });
  await environment.client.indices.delete({ index }, { ignore: [404] });
  return { output, seconds, cpu, cpuSeconds: participantSeconds(cpu, ['floor', ...REPLAY_ENGINES]) };
}

/** The peak RSS the reindex command prints, in MB. */
export function reindexPeakRssMb(output: string): number {
  return Number(/peak RSS (\d+) MB/.exec(output)?.[1]);
}

/** CPU of every participant of one phase; `child` names the phase's own child process. */
export async function measured<T>(
  child: string,
  run: () => Promise<T>,
): Promise<{ value: T; seconds: number; cpu: CpuUsage }> {
  const names = { self: 'bench', child };
  const before = snapshotParticipants([], names);
  const started = performance.now();
  const value = await run();
  const seconds = (performance.now() - started) / 1000;
  const after = snapshotParticipants([], names);
  const cpu = before && after ? participantsBetween(before, after, child) : NO_CPU;
  return { value, seconds, cpu };
}

/** Runs `reindex [args]` to its end and returns what it printed; a failure throws with that output. */
export async function runReindex(
  environment: Pick<BenchEnvironment, 'databaseUrl' | 'alias'>,
  args: string[] = [],
): Promise<string> {
  const reindex = startReindex(environment, args);
  const exitCode = await reindex.exited;
  if (exitCode !== 0) throw new Error(`reindex failed:\n${reindex.output()}`);
  return reindex.output();
}

/** Where a stretch of a reindex begins: the first line of the command's output that matches `line`. */
export type ReindexMark = { stretch: string; line: RegExp };

/** The engines' CPU (PostgreSQL's and Elasticsearch's, with the machine's iowait) over one stretch. */
export type ReindexStretch = { stretch: string; seconds: number; cpu: CpuUsage };

/** The stretches' engines: the reindex's own CPU is only known whole, once it has exited. */
const STRETCH_PARTS = [POSTGRESQL_PART, 'elasticsearch'];

/** How often the output is looked at for the next mark: a stretch's edges are this exact. */
const MARK_POLL_MS = 200;

/**
 * `runReindex`, measured as `measured('reindex', …)` measures it, with the engines' CPU also split into
 * stretches: `firstStretch` from the start, then one from each mark (in order) to the next or the end. A
 * mark the command never prints leaves its stretch inside the one before.
 */
export async function runReindexInStretches(
  environment: Pick<BenchEnvironment, 'databaseUrl' | 'alias'>,
  args: string[],
  firstStretch: string,
  marks: ReadonlyArray<ReindexMark>,
): Promise<{ output: string; seconds: number; cpu: CpuUsage; stretches: ReindexStretch[] }> {
  const stretches: ReindexStretch[] = [];
  const snapshot = () => ({
    at: snapshotParticipants([], { self: 'bench', child: 'reindex' }),
    time: performance.now(),
  });
  const { value, seconds, cpu } = await measured('reindex', async () => {
    const reindex = startReindex(environment, args);
    let exited = false;
    void reindex.exited.then(() => (exited = true));
    let open: { stretch: string; at: ParticipantSnapshot | undefined; time: number } = {
      stretch: firstStretch,
      ...snapshot(),
    };
    const closeAt = (next: { at: ParticipantSnapshot | undefined; time: number }) => {
      if (open.at && next.at) {
        const usage = participantsBetween(open.at, next.at, 'reindex');
        const byPart = new Map(STRETCH_PARTS.map((part) => [part, usage.byPart.get(part) ?? 0]));
        const seconds = (next.time - open.time) / 1000;
        stretches.push({ stretch: open.stretch, seconds, cpu: { ...usage, byPart } });
      }
    };
    for (const mark of marks) {
      while (!exited && !mark.line.test(reindex.output())) await sleep(MARK_POLL_MS);
      if (exited) break;
      const next = { stretch: mark.stretch, ...snapshot() };
      closeAt(next);
      open = next;
    }
    const exitCode = await reindex.exited;
    closeAt(snapshot());
    if (exitCode !== 0) throw new Error(`reindex failed:\n${reindex.output()}`);
    return reindex.output();
  });
  return { output: value, seconds, cpu, stretches };
}
