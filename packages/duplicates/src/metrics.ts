/** Precision, recall and F1 of proposed pairs against the true clusters. */
export type PairMetrics = {
  proposed: number;
  truePairs: number;
  correct: number;
  precision: number;
  recall: number;
  f1: number;
};

/**
 * Scores proposed pairs against the truth: `clusterOf` gives each record's true cluster, and the true
 * pairs are every pair of records within a cluster. A proposed pair is correct when both records are
 * of one cluster (a pair proposed twice, in either order, counts once). With nothing proposed precision
 * is 1; with nothing to find recall is 1.
 */
export function pairMetrics(
  proposed: ReadonlyArray<{ a: string; b: string }>,
  clusterOf: ReadonlyMap<string, string>,
): PairMetrics {
  const sizes = new Map<string, number>();
  for (const cluster of clusterOf.values()) sizes.set(cluster, (sizes.get(cluster) ?? 0) + 1);
  let truePairs = 0;
  for (const size of sizes.values()) truePairs += (size * (size - 1)) / 2;
  const distinct = new Set<string>();
  let correct = 0;
  for (const { a, b } of proposed) {
    if (a === b) continue;
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
    if (distinct.has(key)) continue;
    distinct.add(key);
    const cluster = clusterOf.get(a);
    if (cluster !== undefined && cluster === clusterOf.get(b)) correct++;
  }
  const precision = distinct.size === 0 ? 1 : correct / distinct.size;
  const recall = truePairs === 0 ? 1 : correct / truePairs;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { proposed: distinct.size, truePairs, correct, precision, recall, f1 };
}
