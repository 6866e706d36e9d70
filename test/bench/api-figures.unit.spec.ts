import { describe, expect, it } from 'vitest';
import {
  apiRoundFigures,
  facetsCost,
  facetsGoals,
  formatApiFigures,
  formatApiRound,
  zipfGoals,
  type ApiRound,
  type PhaseSummary,
} from '../../bench/api-figures.js';

const phase = (rps: number, p99: number, stealSeconds = 0): PhaseSummary => ({
  rps,
  p50: p99 / 4,
  p99,
  count: 1000,
  stealSeconds,
});

describe('apiRoundFigures', () => {
  it("takes the median of each round's ratio, not the ratio of the medians", () => {
    const rounds: ApiRound[] = [
      { ours: phase(300, 10, 0.1), raw: phase(100, 12, 0.2) }, // 3
      { ours: phase(200, 11), raw: phase(200, 12) }, // 1
      { ours: phase(150, 9, 0.5), raw: phase(100, 10) }, // 1.5
    ];
    const figures = apiRoundFigures(rounds);
    expect(figures.rounds).toBe(3);
    expect(figures.ratio).toEqual({ median: 1.5, min: 1, max: 3, values: [3, 1, 1.5] });
    expect(figures.oursRps.median).toBe(200);
    expect(figures.rawP99).toMatchObject({ median: 12, min: 10, max: 12 });
    expect(figures.p99LeRawEveryRound).toBe(true);
    expect(figures.stealSeconds).toBeCloseTo(0.8);
  });

  it('fails the p99 goal when ours is slower than raw in any one round, even if its median is faster', () => {
    const figures = apiRoundFigures([
      { ours: phase(300, 5), raw: phase(100, 10) },
      { ours: phase(300, 11), raw: phase(100, 10) },
      { ours: phase(300, 5), raw: phase(100, 10) },
    ]);
    expect(figures.oursP99.median).toBeLessThan(figures.rawP99.median);
    expect(figures.p99LeRawEveryRound).toBe(false);
    expect(zipfGoals(figures)).toEqual([
      { met: true, line: '✔ goal: median ratio ≥ 1.5 (3.00)' },
      { met: false, line: '✘ goal: p99 ≤ raw in every round (above raw in round 2)' },
    ]);
  });

  it('names every round where ours was slower', () => {
    const figures = apiRoundFigures([
      { ours: phase(300, 11), raw: phase(100, 10) },
      { ours: phase(300, 5), raw: phase(100, 10) },
      { ours: phase(300, 12), raw: phase(100, 10) },
    ]);
    expect(zipfGoals(figures)[1]?.line).toBe('✘ goal: p99 ≤ raw in every round (above raw in rounds 1, 3)');
  });

  it('fails the ratio goal below 1.5', () => {
    const [ratio] = zipfGoals(apiRoundFigures([{ ours: phase(140, 5), raw: phase(100, 10) }]));
    expect(ratio).toEqual({ met: false, line: '✘ goal: median ratio ≥ 1.5 (1.40)' });
  });
});

describe('facetsGoals', () => {
  it("judges each round's p99 with facets ÷ without by its median, and the ratio apart from it", () => {
    const rounds: ApiRound[] = [
      { ours: phase(90, 12), raw: phase(100, 10) }, // cost 1.2, ratio 0.9
      { ours: phase(80, 15), raw: phase(100, 10) }, // cost 1.5, ratio 0.8
      { ours: phase(95, 11), raw: phase(100, 10) }, // cost 1.1, ratio 0.95
    ];
    const cost = facetsCost(rounds, [phase(200, 10), phase(200, 10), phase(200, 10)]);
    expect(cost).toMatchObject({ median: 1.2, min: 1.1, max: 1.5 });
    expect(facetsGoals(apiRoundFigures(rounds), cost)).toEqual({
      cost: { met: true, line: '✔ goal: p99 with facets ÷ without ≤ 1.2 (median 1.20 (1.10–1.50))' },
      ratio: { met: true, line: '✔ goal: median ratio ours ÷ raw ≥ 0.9 (0.90)' },
    });
    const slower = facetsCost(rounds.slice(1, 2), [phase(200, 10)]);
    const goals = facetsGoals(apiRoundFigures(rounds.slice(1, 2)), slower);
    expect([goals.cost.met, goals.ratio.met]).toEqual([false, false]);
    expect(() => facetsCost(rounds, [phase(200, 10)])).toThrow('one phase without facets per round');
  });
});

describe('formatting', () => {
  it('prints a round with its order, both sides and its ratio', () => {
    expect(formatApiRound(1, ['raw', 'ours'], { ours: phase(300, 8, 0.25), raw: phase(150, 10) })).toBe(
      'round 2 (raw→ours): ours 300 req/s p50 2.00 ms p99 8.00 ms steal 0.25 s · ' +
        'raw 150 req/s p50 2.50 ms p99 10.00 ms steal 0.00 s · ratio 2.00',
    );
  });

  it('prints the medians and ranges', () => {
    const lines = formatApiFigures(
      apiRoundFigures([
        { ours: phase(300, 8), raw: phase(150, 10) },
        { ours: phase(200, 6), raw: phase(100, 12) },
      ]),
    );
    expect(lines).toEqual([
      'over 2 rounds, median (min–max):',
      'ours: 250 req/s (200–300), p50 1.75 ms (1.50–2.00), p99 7.00 ms (6.00–8.00)',
      'raw:  125 req/s (100–150), p50 2.75 ms (2.50–3.00), p99 11.00 ms (10.00–12.00)',
      'ratio ours ÷ raw: 2.00 (2.00–2.00); steal during the measured phases 0.00 s',
    ]);
  });
});
