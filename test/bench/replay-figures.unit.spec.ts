import { describe, expect, it } from 'vitest';
import {
  postmastersOf,
  parseStatLine,
  participantsBetween,
  participantSeconds,
} from '../../bench/participant-cpu.js';
import { freshnessPercentiles, GIVE_UP_MS, pollDelayMs } from '../../bench/live-freshness.js';
import {
  busyShare,
  describeAgainstReplays,
  formatGoal,
  goalMet,
  REPLAY_GOALS,
  replayCpuRatio,
  roundFigures,
  slowestFound,
  stagesOf,
  summarizeStages,
} from '../../bench/replay-figures.js';
import { figure } from '../../bench/rounds.js';
import type { CpuSnapshot } from '../../bench/cpu-usage.js';

describe('replay figures', () => {
  it('busy is every participant’s CPU over cores × wall time', () => {
    expect(busyShare(18, 2, 10)).toBeCloseTo(0.9);
    expect(() => busyShare(1, 2, 0)).toThrow();
  });

  it('cpu_ratio is the replay’s CPU over the floor’s, and needs the floor’s', () => {
    expect(replayCpuRatio({ cpuSeconds: 12 }, { cpuSeconds: 10 })).toBeCloseTo(1.2);
    expect(() => replayCpuRatio({ cpuSeconds: 12 }, { cpuSeconds: 0 })).toThrow();
  });

  it('a round’s figures: docs/s, ratios, cpu_ratio and the best case from the floor’s CPU', () => {
    const figures = roundFigures(
      {
        ours: { documents: 1_000, seconds: 2, cpuSeconds: 3.3 },
        floor: { documents: 1_000, seconds: 1, cpuSeconds: 3 },
        raw: { documents: 1_000, seconds: 0.5, cpuSeconds: 1 },
      },
      2,
    );
    expect(figures.ours).toBe(500);
    expect(figures.floor).toBe(1_000);
    expect(figures.raw).toBe(2_000);
    expect(figures.ratio).toBeCloseTo(0.25);
    expect(figures.ratioFloor).toBeCloseTo(0.5);
    expect(figures.cpuRatio).toBeCloseTo(1.1);
    expect(figures.busy).toBeCloseTo(0.825);
    // 3 CPU s on 2 cores: 1.5 s, 667 docs/s, a third of raw.
    expect(figures.bestRatio).toBeCloseTo(1 / 3);
  });

  it('without a floor (a plain reindex) there is no floor figure', () => {
    const figures = roundFigures(
      {
        ours: { documents: 10, seconds: 1, cpuSeconds: 1 },
        raw: { documents: 10, seconds: 1, cpuSeconds: 1 },
      },
      2,
    );
    expect(figures.cpuRatio).toBeUndefined();
    expect(figures.floor).toBeUndefined();
  });

  it('goals are judged on the median, in their direction', () => {
    expect(goalMet(1.1, REPLAY_GOALS.cpuRatio)).toBe(true);
    expect(goalMet(1.11, REPLAY_GOALS.cpuRatio)).toBe(false);
    expect(goalMet(0.89, REPLAY_GOALS.busy)).toBe(false);
    expect(formatGoal('busy', figure([0.95, 0.8, 0.92]), REPLAY_GOALS.busy, 2)).toBe(
      'busy 0.92 (0.80–0.95), goal ≥ 0.90 ✔',
    );
    expect(formatGoal('rss', figure([310]), REPLAY_GOALS.rssMb, 0, 'MB')).toBe(
      'rss 310 MB (310–310), goal ≤ 300 MB ✘',
    );
  });
});

describe('participant CPU', () => {
  // A /proc/<pid>/stat line whose command name holds spaces and a parenthesis.
  const stat = '2192 (postgres: a) b) S 1 2192 2192 0 -1 4194560 1 2 3 4 500 600 70 80 20 0 1 0 100';

  it('reads the parent pid and the ticks of children waited for', () => {
    expect(parseStatLine(stat)).toEqual({ ppid: 1, reapedChildrenTicks: 150 });
  });

  it('the postmasters are the PostgreSQL processes whose parent is not one, whatever their pids', () => {
    // A private cluster whose pid wrapped below the shared server's.
    const parents = new Map([
      [10, 1],
      [11, 10],
      [12, 10],
      [5, 900],
      [6, 5],
    ]);
    expect(postmastersOf([5, 6, 11, 10, 12], (pid) => parents.get(pid))).toEqual([5, 10]);
    expect(postmastersOf([], (pid) => parents.get(pid))).toEqual([]);
  });

  it('adds the CPU of exited children and exited backends to their parts', () => {
    const snapshot = (seconds: number, reapedBySelf: number, reapedByPostmasters: Map<number, number>) => ({
      cpu: {
        busySeconds: 0,
        stealSeconds: 0,
        iowaitSeconds: 0,
        processes: new Map([[42, { part: 'postgresql', seconds }]]),
      } satisfies CpuSnapshot,
      reapedBySelf,
      reapedByPostmasters,
      postgresParents: new Map([[42, 10]]),
    });
    // Two clusters' backends exit during the phase; a third postmaster starts (counted from zero) and a
    // fourth stops (nothing counted).
    const before = snapshot(
      1,
      5,
      new Map([
        [10, 2],
        [5, 1],
        [7, 50],
      ]),
    );
    const after = snapshot(
      1.5,
      12,
      new Map([
        [10, 4],
        [5, 4],
        [8, 0.5],
      ]),
    );
    const usage = participantsBetween(before, after, 'reindex');
    expect(usage.byPart.get('reindex')).toBeCloseTo(7);
    expect(usage.byPart.get('postgresql')).toBeCloseTo(0.5 + 2 + 3 + 0.5);
    expect(participantSeconds(usage, ['reindex', 'postgresql'])).toBeCloseTo(13);
    expect(participantSeconds(usage, ['reindex', 'elasticsearch'])).toBeCloseTo(7);
  });
});

describe('participant CPU of a backend that outlives a snapshot', () => {
  const postgres = (processes: Array<[number, number]>, reaped: number) => ({
    cpu: {
      busySeconds: 0,
      stealSeconds: 0,
      iowaitSeconds: 0,
      processes: new Map(processes.map(([pid, seconds]) => [pid, { part: 'postgresql', seconds }])),
    } satisfies CpuSnapshot,
    reapedBySelf: 0,
    reapedByPostmasters: new Map([[10, reaped]]),
    postgresParents: new Map(processes.map(([pid]) => [pid, pid === 10 ? 1 : 10])),
  });

  it('counts only the CPU it spent after the first snapshot, once it has exited', () => {
    // Backend 42 had run 30 s (an earlier phase's work) and exits at 34 s; backend 43 lives throughout.
    const before = postgres(
      [
        [10, 1],
        [42, 30],
        [43, 2],
      ],
      100,
    );
    const after = postgres(
      [
        [10, 1.5],
        [43, 3],
      ],
      134,
    );
    expect(participantsBetween(before, after, 'reindex').byPart.get('postgresql')).toBeCloseTo(0.5 + 1 + 4);
  });

  it('splits a phase into stretches that add up to the whole phase', () => {
    const start = postgres([[10, 0]], 0);
    const middle = postgres(
      [
        [10, 0],
        [42, 6],
      ],
      0,
    );
    const end = postgres([[10, 0]], 10);
    const part = (from: typeof start, to: typeof start) =>
      participantsBetween(from, to, 'reindex').byPart.get('postgresql') ?? 0;
    expect(part(start, middle)).toBeCloseTo(6);
    expect(part(middle, end)).toBeCloseTo(4);
    expect(part(start, end)).toBeCloseTo(10);
  });
});

describe('freshness figures', () => {
  it('polls finely within the goal’s range and coarsely after it', () => {
    expect(pollDelayMs(0)).toBe(25);
    expect(pollDelayMs(1_999)).toBe(25);
    expect(pollDelayMs(2_000)).toBe(250);
  });

  it('counts a rename never found as found at the give-up time when asked', () => {
    const run = { latencies: [100, 200, 300], found: [], missed: 1, events: 4, backgroundSearches: 0 };
    expect(freshnessPercentiles(run)).toEqual({ p50: 200, p99: 300, max: 300 });
    expect(freshnessPercentiles(run, { countMissed: true })).toEqual({
      p50: 200,
      p99: GIVE_UP_MS,
      max: GIVE_UP_MS,
    });
  });
});

describe('the slowest live events against the replays', () => {
  const found = [
    { acceptedAt: 1_000, latencyMs: 900 },
    { acceptedAt: 12_000, latencyMs: 2_400 },
    { acceptedAt: 25_000, latencyMs: 1_100 },
    { acceptedAt: 31_000, latencyMs: 3_100 },
  ];

  it('takes the slowest first', () => {
    expect(slowestFound(found, 2).map((event) => event.latencyMs)).toEqual([3_100, 2_400]);
  });

  it('places each against the replay it was sent in and the phases of that replay', () => {
    const replays = [
      { began: 5_000, phases: { health: 11_000, verify: 11_800, swap: 12_500 } },
      { began: 20_000, phases: {} },
    ];
    expect(describeAgainstReplays({ acceptedAt: 1_000, latencyMs: 900 }, replays)).toBe(
      '900 ms, sent before any replay',
    );
    expect(describeAgainstReplays({ acceptedAt: 12_000, latencyMs: 2_400 }, replays)).toBe(
      '2400 ms, sent 7.0 s into replay 1: 1.0 s after health, 0.2 s after verify, 0.5 s before swap',
    );
    expect(describeAgainstReplays({ acceptedAt: 13_000, latencyMs: 1_000 }, replays)).toBe(
      '1000 ms, sent 8.0 s into replay 1: 2.0 s after health, 1.2 s after verify, 0.5 s after swap',
    );
    expect(describeAgainstReplays({ acceptedAt: 31_000, latencyMs: 3_100 }, replays)).toBe(
      '3100 ms, sent 11.0 s into replay 2: no phase seen',
    );
  });

  it('splits a latency into the queue, the worker and the wait until a search returns it', () => {
    const stages = stagesOf({ queuedAt: 10_000, startedAt: 10_004, finishedAt: 10_090 }, 11_300);
    expect(stages).toEqual({ queuedMs: 4, workerMs: 86, visibleMs: 1_210 });
    expect(
      describeAgainstReplays({ acceptedAt: 12_000, latencyMs: 1_300, stages }, [
        { began: 5_000, phases: {} },
      ]),
    ).toBe(
      '1300 ms (queue 4 ms, worker 86 ms, to searchable 1210 ms), sent 7.0 s into replay 1: no phase seen',
    );
    expect(
      summarizeStages([
        { acceptedAt: 1, latencyMs: 1_000, stages: { queuedMs: 2, workerMs: 80, visibleMs: 900 } },
        { acceptedAt: 2, latencyMs: 2_400 },
        { acceptedAt: 3, latencyMs: 1_500, stages: { queuedMs: 6, workerMs: 300, visibleMs: 1_100 } },
        { acceptedAt: 4, latencyMs: 1_200, stages: { queuedMs: 4, workerMs: 100, visibleMs: 1_000 } },
      ]),
    ).toBe(
      'queue median 4 ms, max 6 ms; worker median 100 ms, max 300 ms; to searchable median 1000 ms, max 1100 ms',
    );
    expect(summarizeStages([{ acceptedAt: 1, latencyMs: 1_000 }])).toBe('no job times');
  });
});
