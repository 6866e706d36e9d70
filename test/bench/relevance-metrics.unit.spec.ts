import { describe, expect, it } from 'vitest';
import {
  checkCoverageGoals,
  checkGoals,
  meanOf,
  ndcgAt,
  recallAt,
  zeroResultRate,
  type QueryScore,
} from '../../bench/relevance-metrics.js';
import type { Grade } from '../../bench/relevance-queries.js';

const judged = (entries: Array<[string, Grade]>) => new Map<string, Grade>(entries);

describe('recallAt', () => {
  it('counts relevant answers of any grade in the first ten, out of as many as could be there', () => {
    const judgments = judged([
      ['a', 2],
      ['b', 1],
      ['c', 1],
    ]);
    expect(recallAt(['a', 'x', 'b'], judgments)).toBeCloseTo(2 / 3);
    expect(recallAt(['x', 'y'], judgments)).toBe(0);
    expect(recallAt(['c', 'b', 'a'], judgments)).toBe(1);
  });

  it('caps the possible at ten, so a perfect first page of a broad query is 1', () => {
    const many = judged(Array.from({ length: 30 }, (_, n) => [`p${n}`, 1] as [string, Grade]));
    expect(
      recallAt(
        Array.from({ length: 10 }, (_, n) => `p${n + 5}`),
        many,
      ),
    ).toBe(1);
    expect(
      recallAt(
        Array.from({ length: 12 }, (_, n) => (n < 2 ? `x${n}` : `p${n}`)),
        many,
      ),
    ).toBe(0.8);
  });

  it('counts a place answered twice once, and nothing without judgments', () => {
    expect(
      recallAt(
        ['a', 'a'],
        judged([
          ['a', 2],
          ['b', 2],
        ]),
      ),
    ).toBe(0.5);
    expect(recallAt(['a'], judged([]))).toBe(0);
  });
});

describe('ndcgAt', () => {
  it('is 1 for the ideal order and less when the place meant comes later', () => {
    const judgments = judged([
      ['meant', 2],
      ['also', 1],
    ]);
    expect(ndcgAt(['meant', 'also'], judgments)).toBe(1);
    const swapped = ndcgAt(['also', 'meant'], judgments);
    // DCG (1 + 3/log2 3) over IDCG (3 + 1/log2 3).
    expect(swapped).toBeCloseTo((1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3)));
    expect(ndcgAt(['x', 'meant', 'also'], judgments)).toBeLessThan(1);
  });

  it('ignores answers past the tenth, repeats and unjudged places', () => {
    const judgments = judged([['meant', 2]]);
    expect(ndcgAt([...Array.from({ length: 10 }, (_, n) => `x${n}`), 'meant'], judgments)).toBe(0);
    expect(ndcgAt(['meant', 'meant'], judgments)).toBe(1);
    expect(ndcgAt(['meant'], judged([]))).toBe(0);
  });

  it('scores the best ten of many judged places as the ideal', () => {
    const many = judged(Array.from({ length: 20 }, (_, n) => [`p${n}`, n < 3 ? 2 : 1] as [string, Grade]));
    expect(ndcgAt(['p0', 'p1', 'p2', 'p10', 'p11', 'p12', 'p13', 'p14', 'p15', 'p16'], many)).toBeCloseTo(1);
  });
});

describe('zeroResultRate', () => {
  it('is the share of empty answers, null without any', () => {
    expect(zeroResultRate([0, 3, 10, 0])).toBe(0.5);
    expect(zeroResultRate([1])).toBe(0);
    expect(zeroResultRate([])).toBeNull();
  });
});

describe('meanOf and checkGoals', () => {
  const score = (
    system: string,
    queryClass: QueryScore['queryClass'],
    recall: number,
    ndcg: number,
  ): QueryScore => ({
    system,
    country: 'de',
    queryClass,
    recall,
    ndcg,
  });
  const scores = [
    score('ours', 'name-typo', 1, 0.9),
    score('ours', 'specialty-city-typo', 0.8, 0.8),
    score('ours', 'name', 1, 1),
    score('multi_match', 'name-typo', 1, 0.7),
    score('multi_match', 'specialty-city-typo', 0.5, 0.5),
    score('multi_match', 'name', 1, 0.9),
  ];

  it('averages per query over what it selects', () => {
    expect(meanOf(scores, (s) => s.system === 'ours')).toEqual({
      queries: 3,
      recall: 2.8 / 3,
      ndcg: 2.7 / 3,
    });
    expect(meanOf(scores, (s) => s.system === 'nobody')).toBeNull();
  });

  it('checks typo recall and the NDCG margin, and says when a system did not answer', () => {
    const [typo, margin] = checkGoals(scores, 'ours', 'multi_match');
    expect(typo).toMatchObject({ value: 0.9, met: true });
    expect(margin?.value).toBeCloseTo(0.9 - 0.7);
    expect(margin?.met).toBe(true);
    const withoutOurs = checkGoals(
      scores.filter((s) => s.system !== 'ours'),
      'ours',
      'multi_match',
    );
    expect(withoutOurs.map((goal) => goal.met)).toEqual([null, null]);
  });

  it('checks the lower of suggest and q for city names, and the zero-result rate against its bound', () => {
    const [names, zero] = checkCoverageGoals({ suggest: 1, search: 0.94 }, 0.005);
    expect(names).toMatchObject({ value: 0.94, met: false });
    expect(zero).toMatchObject({ value: 0.005, met: true });
    expect(checkCoverageGoals({ suggest: 0.95, search: 1 }, 0.006).map((goal) => goal.met)).toEqual([
      true,
      false,
    ]);
    expect(checkCoverageGoals(null, null).map((goal) => goal.met)).toEqual([null, null]);
  });
});
