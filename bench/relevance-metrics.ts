// Scoring of `npm run bench:relevance`: recall@10 and NDCG@10 of one ranked answer against a query's
// graded judgments, and their means by system, class and dataset. Pure (test/bench/relevance-metrics.unit.spec.ts).
import type { Grade, QueryClass } from './relevance-queries.js';

export const CUTOFF = 10;

/**
 * The share of the relevant places (any grade) in the first CUTOFF answers, out of as many as could be
 * there: min(relevant, CUTOFF). A specialty + city query can have dozens of right answers; ten of them
 * is a perfect first page.
 */
export function recallAt(
  ranked: ReadonlyArray<string>,
  judgments: ReadonlyMap<string, Grade>,
  cutoff = CUTOFF,
): number {
  const possible = Math.min(judgments.size, cutoff);
  if (possible === 0) return 0;
  const found = new Set(ranked.slice(0, cutoff).filter((id) => judgments.has(id))).size;
  return found / possible;
}

const gain = (grade: number) => 2 ** grade - 1;
const discount = (rank: number) => Math.log2(rank + 2);

/**
 * Normalized discounted cumulative gain over the first CUTOFF answers, gain 2^grade − 1 (3 for the place
 * meant, 1 for another right one), divided by the best order of the judged places. 0 without judgments.
 */
export function ndcgAt(
  ranked: ReadonlyArray<string>,
  judgments: ReadonlyMap<string, Grade>,
  cutoff = CUTOFF,
): number {
  const seen = new Set<string>();
  let dcg = 0;
  ranked.slice(0, cutoff).forEach((id, rank) => {
    if (seen.has(id)) return;
    seen.add(id);
    dcg += gain(judgments.get(id) ?? 0) / discount(rank);
  });
  const ideal = [...judgments.values()]
    .sort((a, b) => b - a)
    .slice(0, cutoff)
    .reduce((sum, grade, rank) => sum + gain(grade) / discount(rank), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** One query's scores for one system. */
export type QueryScore = {
  system: string;
  country: string;
  queryClass: QueryClass;
  recall: number;
  ndcg: number;
};

export type MeanScore = { queries: number; recall: number; ndcg: number };

/** The mean of the scores that `belongs` selects; null when none does. */
export function meanOf(
  scores: ReadonlyArray<QueryScore>,
  belongs: (score: QueryScore) => boolean,
): MeanScore | null {
  const chosen = scores.filter(belongs);
  if (chosen.length === 0) return null;
  const sum = (pick: (score: QueryScore) => number) =>
    chosen.reduce((total, score) => total + pick(score), 0);
  return {
    queries: chosen.length,
    recall: sum((s) => s.recall) / chosen.length,
    ndcg: sum((s) => s.ndcg) / chosen.length,
  };
}

/** The share of queries a system answered with nothing (a failed query counts as no answer); null without queries. */
export function zeroResultRate(answerSizes: ReadonlyArray<number>): number | null {
  if (answerSizes.length === 0) return null;
  return answerSizes.filter((size) => size === 0).length / answerSizes.length;
}

export const isTypoClass = (queryClass: QueryClass) => queryClass.endsWith('-typo');

/** The goals relevance ranking is tuned for. */
export const GOALS = {
  /** Ours finds at least this recall@10 on the one-typo queries. */
  typoRecall: 0.9,
  /** Ours beats plain multi_match's NDCG@10 over all queries by at least this much. */
  ndcgMarginOverMultiMatch: 0.05,
  /** Other names of the largest cities found, by suggest and by q alike, at least this often. */
  placeNamesFound: 0.95,
  /** Ours answers nothing to at most this share of the workload. */
  zeroResultRateMax: 0.005,
} as const;

export type GoalCheck = { goal: string; value: number | null; target: number | null; met: boolean | null };

/** The goal lines; null values where a system did not answer. */
export function checkGoals(scores: ReadonlyArray<QueryScore>, ours: string, multiMatch: string): GoalCheck[] {
  const typo = meanOf(scores, (s) => s.system === ours && isTypoClass(s.queryClass));
  const oursAll = meanOf(scores, (s) => s.system === ours);
  const baseline = meanOf(scores, (s) => s.system === multiMatch);
  const margin = oursAll && baseline ? oursAll.ndcg - baseline.ndcg : null;
  return [
    {
      goal: `recall@${CUTOFF} of ${ours} on the one-typo queries ≥ ${GOALS.typoRecall}`,
      value: typo?.recall ?? null,
      target: GOALS.typoRecall,
      met: typo ? typo.recall >= GOALS.typoRecall : null,
    },
    {
      goal: `NDCG@${CUTOFF} of ${ours} ≥ ${multiMatch} + ${GOALS.ndcgMarginOverMultiMatch}`,
      value: margin,
      target: GOALS.ndcgMarginOverMultiMatch,
      met: margin === null ? null : margin >= GOALS.ndcgMarginOverMultiMatch - 1e-9,
    },
  ];
}

/**
 * The goal lines of what the workload's scores do not hold: the other names of cities, found by suggest
 * and by q (the lower of the two, over every dataset), and ours' zero-result rate; null where unmeasured.
 */
export function checkCoverageGoals(
  placeNames: { suggest: number; search: number } | null,
  oursZeroResultRate: number | null,
): GoalCheck[] {
  const found = placeNames === null ? null : Math.min(placeNames.suggest, placeNames.search);
  return [
    {
      goal: `other city names found by suggest and by q (the lower) ≥ ${GOALS.placeNamesFound}`,
      value: found,
      target: GOALS.placeNamesFound,
      met: found === null ? null : found >= GOALS.placeNamesFound,
    },
    {
      goal: `zero-result rate of ours ≤ ${GOALS.zeroResultRateMax}`,
      value: oursZeroResultRate,
      target: GOALS.zeroResultRateMax,
      met: oursZeroResultRate === null ? null : oursZeroResultRate <= GOALS.zeroResultRateMax,
    },
  ];
}
