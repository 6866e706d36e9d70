import { formatFigure, median, range, type Figure } from './rounds.js';

// The figures `bench:reindex` derives from each round's measured sides, and its goals. Pure: the
// benchmark measures, this computes and formats.

/** One measured run of a side: documents written, wall seconds, every participant's CPU seconds. */
export type SideRun = { documents: number; seconds: number; cpuSeconds: number };

/**
 * How much of the machine the participants kept busy: their process CPU over every core's wall time,
 * 0–1. Below 1, cores were idle (or given to others) while the side ran: time a pipelined run could use.
 */
export function busyShare(cpuSeconds: number, cores: number, wallSeconds: number): number {
  if (!(cores > 0) || !(wallSeconds > 0)) throw new Error('busy needs cores and a wall time');
  return cpuSeconds / (cores * wallSeconds);
}

/** A replay's CPU ÷ its floor's, every participant on both sides (`cpu_ratio`, docs/benchmarks.md). */
export function replayCpuRatio(
  replay: Pick<SideRun, 'cpuSeconds'>,
  floor: Pick<SideRun, 'cpuSeconds'>,
): number {
  if (!(floor.cpuSeconds > 0)) throw new Error('a cpu ratio needs the floor’s CPU');
  return replay.cpuSeconds / floor.cpuSeconds;
}

export type RoundFigures = {
  /** docs/s of each side. */
  ours: number;
  raw: number;
  floor?: number;
  /** ours ÷ raw, ours ÷ floor (docs/s). */
  ratio: number;
  ratioFloor?: number;
  /** ours' CPU ÷ the floor's, all participants on both sides. */
  cpuRatio?: number;
  /** ours' participants' CPU over cores × ours' wall time. */
  busy: number;
  /** The floor's CPU on every core with none idle, ÷ raw's docs/s. */
  bestRatio?: number;
};

export function roundFigures(
  sides: { ours: SideRun; raw: SideRun; floor?: SideRun },
  cores: number,
): RoundFigures {
  const rate = (side: SideRun) => side.documents / side.seconds;
  const ours = rate(sides.ours);
  const raw = rate(sides.raw);
  const figures: RoundFigures = {
    ours,
    raw,
    ratio: ours / raw,
    busy: busyShare(sides.ours.cpuSeconds, cores, sides.ours.seconds),
  };
  const { floor } = sides;
  if (floor === undefined) return figures;
  return {
    ...figures,
    floor: rate(floor),
    ratioFloor: ours / rate(floor),
    cpuRatio: replayCpuRatio(sides.ours, floor),
    bestRatio: floor.documents / (floor.cpuSeconds / cores) / raw,
  };
}

export type Goal = { limit: number; direction: 'at most' | 'at least' };

export function goalMet(value: number, goal: Goal): boolean {
  return goal.direction === 'at most' ? value <= goal.limit : value >= goal.limit;
}

/** "name median (min–max) unit, goal ≤ limit ✔", judged on the median. */
export function formatGoal(name: string, value: Figure, goal: Goal, digits: number, unit = ''): string {
  const sign = goal.direction === 'at most' ? '≤' : '≥';
  const limit = `${goal.limit.toFixed(digits)}${unit === '' ? '' : ` ${unit}`}`;
  return `${name} ${formatFigure(value, digits, unit)}, goal ${sign} ${limit} ${goalMet(value.median, goal) ? '✔' : '✘'}`;
}

/** The replay's goals (docs/benchmarks.md). */
export const REPLAY_GOALS = {
  cpuRatio: { limit: 1.1, direction: 'at most' },
  busy: { limit: 0.9, direction: 'at least' },
  /** At 1,000,000 places. */
  rssMb: { limit: 300, direction: 'at most' },
  freshnessP99Ms: { limit: 2_000, direction: 'at most' },
} as const satisfies Record<string, Goal>;

/**
 * Where a live event's latency went: waiting in the queue, in the worker (store, fold, index write),
 * and from the worker's write to a search returning it (the index's refresh, and the poll's step).
 */
export type FreshnessStages = { queuedMs: number; workerMs: number; visibleMs: number };

/** A live event's job as BullMQ records it (epoch ms). */
export type JobTimes = { queuedAt: number; startedAt: number; finishedAt: number };

/** A live event found by search: when `ingest` accepted it (`performance.now()`) and its latency. */
export type FoundEvent = { acceptedAt: number; latencyMs: number; stages?: FreshnessStages };

export function stagesOf(job: JobTimes, foundAt: number): FreshnessStages {
  return {
    queuedMs: job.startedAt - job.queuedAt,
    workerMs: job.finishedAt - job.startedAt,
    visibleMs: foundAt - job.finishedAt,
  };
}

/** "queue 3 ms, worker 48 ms, to searchable 1210 ms" */
export function formatStages(stages: FreshnessStages): string {
  return `queue ${stages.queuedMs} ms, worker ${stages.workerMs} ms, to searchable ${stages.visibleMs} ms`;
}

/** The median and the largest of each stage, over the events whose job times were read. */
export function summarizeStages(found: ReadonlyArray<FoundEvent>): string {
  const all = found.flatMap((event) => (event.stages ? [event.stages] : []));
  if (all.length === 0) return 'no job times';
  const describe = (name: string, values: number[]) =>
    `${name} median ${Math.round(median(values))} ms, max ${range(values).max} ms`;
  return [
    describe(
      'queue',
      all.map((stages) => stages.queuedMs),
    ),
    describe(
      'worker',
      all.map((stages) => stages.workerMs),
    ),
    describe(
      'to searchable',
      all.map((stages) => stages.visibleMs),
    ),
  ].join('; ');
}

export function slowestFound(found: ReadonlyArray<FoundEvent>, count: number): FoundEvent[] {
  return [...found].sort((a, b) => b.latencyMs - a.latencyMs).slice(0, count);
}

/**
 * The phases of a replay the benchmark places live events against, in their order: the line the
 * reindex prints as each begins (the load ends where `merge:` begins).
 */
export const REPLAY_PHASES = ['merge', 'health', 'verify', 'swap'] as const;
export type ReplayPhase = (typeof REPLAY_PHASES)[number];

/** When a replay began, and when each of its phases was seen to begin (`performance.now()`). */
export type ReplayMoments = { began: number; phases: Partial<Record<ReplayPhase, number>> };

/**
 * "2383 ms, sent 31.2 s into replay 1: 0.4 s before health, 1.1 s before verify, 3.0 s before swap"
 * (a phase not seen is left out).
 */
export function describeAgainstReplays(event: FoundEvent, replays: ReadonlyArray<ReplayMoments>): string {
  const seconds = (ms: number) => `${(Math.abs(ms) / 1000).toFixed(1)} s`;
  const index = replays.findLastIndex((replay) => replay.began <= event.acceptedAt);
  const replay = replays[index];
  if (replay === undefined) return `${event.latencyMs.toFixed(0)} ms, sent before any replay`;
  const phases = REPLAY_PHASES.flatMap((phase) => {
    const at = replay.phases[phase];
    if (at === undefined) return [];
    return [`${seconds(at - event.acceptedAt)} ${at >= event.acceptedAt ? 'before' : 'after'} ${phase}`];
  });
  const against = phases.length === 0 ? 'no phase seen' : phases.join(', ');
  const stages = event.stages ? ` (${formatStages(event.stages)})` : '';
  return `${event.latencyMs.toFixed(0)} ms${stages}, sent ${seconds(event.acceptedAt - replay.began)} into replay ${index + 1}: ${against}`;
}
