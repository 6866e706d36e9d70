import type { CandidatePair } from './matcher.js';

/** What decides which record of a group of duplicates survives the merge. */
export type RecordQuality = {
  id: string;
  verified: boolean;
  /** Fields the record publishes (phone, website, email, street, postal code, location, hours, rating…). */
  filledFields: number;
  reviewCount: number | null;
};

/** One `place.merged` to write: `placeId` is merged into `into`, the group's survivor. */
export type PlannedMerge = { placeId: string; into: string; score: number };

/**
 * The better of two records, as the survivor rule orders them: a verified record first, then the one
 * that publishes more fields, then the one with more reviews, then the smaller id (so the rule never
 * depends on the order the records came in).
 */
export function compareQuality(x: RecordQuality, y: RecordQuality): number {
  if (x.verified !== y.verified) return x.verified ? -1 : 1;
  if (x.filledFields !== y.filledFields) return y.filledFields - x.filledFields;
  const reviewsX = x.reviewCount ?? -1;
  const reviewsY = y.reviewCount ?? -1;
  if (reviewsX !== reviewsY) return reviewsY - reviewsX;
  return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
}

/**
 * The merges that apply `pairs`: the pairs are joined into groups (A~B and B~C make one group), each
 * group's best record (compareQuality) survives and every other member is merged straight into it, so
 * no chain or loop is written. A merge's score is the best score of a pair naming the merged record.
 * Records missing from `quality` are taken as the poorest.
 */
export function planMerges(
  pairs: ReadonlyArray<CandidatePair>,
  quality: ReadonlyMap<string, RecordQuality>,
): PlannedMerge[] {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root) as string;
    // Path compression keeps later finds short.
    let node = id;
    while (node !== root) {
      const next = parent.get(node) as string;
      parent.set(node, root);
      node = next;
    }
    return root;
  };
  const best = new Map<string, number>();
  for (const pair of pairs) {
    for (const id of [pair.a, pair.b]) {
      if (!parent.has(id)) parent.set(id, id);
      best.set(id, Math.max(best.get(id) ?? -Infinity, pair.score));
    }
    const rootA = find(pair.a);
    const rootB = find(pair.b);
    if (rootA !== rootB) parent.set(rootA, rootB);
  }
  const groups = new Map<string, string[]>();
  for (const id of parent.keys()) {
    const root = find(id);
    const group = groups.get(root);
    if (group === undefined) groups.set(root, [id]);
    else group.push(id);
  }
  const poorest = (id: string): RecordQuality => ({
    id,
    verified: false,
    filledFields: -1,
    reviewCount: null,
  });
  const merges: PlannedMerge[] = [];
  for (const members of groups.values()) {
    const ranked = members
      .map((id) => quality.get(id) ?? poorest(id))
      .sort(compareQuality)
      .map((record) => record.id);
    const [survivor, ...others] = ranked as [string, ...string[]];
    for (const placeId of others) merges.push({ placeId, into: survivor, score: best.get(placeId) ?? 0 });
  }
  return merges.sort((x, y) => (x.placeId < y.placeId ? -1 : x.placeId > y.placeId ? 1 : 0));
}
