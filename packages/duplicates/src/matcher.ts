import type { MatchRecord } from './normalize.js';
import { DEFAULT_MIN_SCORE, scorePair, type Evidence } from './score.js';

/** Two records the matcher takes for the same practice: `a` sorts before `b`. */
export type CandidatePair = { a: string; b: string; score: number; evidence: Evidence };

export type MatchOptions = {
  /** Pairs scoring below are not returned. Defaults to DEFAULT_MIN_SCORE. */
  minScore?: number;
  /**
   * Blocks larger than this are skipped: a key that many records share (a call centre's number, a
   * common surname in a big city) tells nothing apart, and comparing its records pairwise is quadratic.
   */
  maxBlockSize?: number;
};

export type MatchResult = {
  pairs: CandidatePair[];
  /** Distinct pairs scored (the work done). */
  comparisons: number;
  /** Blocks skipped for their size. */
  skippedBlocks: number;
};

export const DEFAULT_MAX_BLOCK_SIZE = 60;

/** The area of a record for blocking: the first three characters of its postal code. */
export function postalPrefix(record: MatchRecord): string {
  return record.postalCode.slice(0, 3);
}

/**
 * The blocks a record is put in; only records sharing a block are compared. A record is in:
 * - one block per phonetic key of its name in its postal area (country + postal prefix), and one in
 *   its city (so a record without a postal code, or with a city spelt another way, still meets);
 * - one per phone number (E.164 is global) and one for its website's domain, so a practice that moved
 *   to another postal area is still compared with its old record.
 */
export function blockingKeys(record: MatchRecord): string[] {
  const keys: string[] = [];
  const prefix = postalPrefix(record);
  for (const code of record.phoneticKeys) {
    if (prefix !== '') keys.push(`n|${record.country}|${prefix}|${code}`);
    if (record.city !== '') keys.push(`c|${record.country}|${record.city}|${code}`);
  }
  // A generic name has no phonetic key: its whole name stands in, within the city.
  if (record.phoneticKeys.length === 0 && record.fullName !== '' && record.city !== '')
    keys.push(`g|${record.country}|${record.city}|${record.fullName}`);
  for (const phone of record.phones) keys.push(`p|${phone}`);
  if (record.domain !== null) keys.push(`w|${record.domain}`);
  return keys;
}

/**
 * Candidate duplicate pairs among `records`: every pair of records sharing a block is scored once,
 * and those at or above the minimum score are returned, sorted by score (highest first), then ids.
 * A record never pairs with itself; a record whose id came earlier in `records` is left out. Work grows with the sum
 * of the squared block sizes, which the size cap bounds: linear in the records for a bounded cap.
 */
export function findCandidatePairs(
  records: ReadonlyArray<MatchRecord>,
  options: MatchOptions = {},
): MatchResult {
  const minScore = options.minScore ?? DEFAULT_MIN_SCORE;
  const maxBlockSize = options.maxBlockSize ?? DEFAULT_MAX_BLOCK_SIZE;
  const blocks = new Map<string, number[]>();
  const ids = new Set<string>();
  records.forEach((record, index) => {
    // A record whose id came before is the same record again: only its first occurrence is matched.
    if (ids.has(record.id)) return;
    ids.add(record.id);
    for (const key of blockingKeys(record)) {
      const block = blocks.get(key);
      if (block === undefined) blocks.set(key, [index]);
      else if (block[block.length - 1] !== index) block.push(index);
    }
  });
  const seen = new Set<number>();
  const pairs: CandidatePair[] = [];
  let skippedBlocks = 0;
  const total = records.length;
  for (const block of blocks.values()) {
    if (block.length < 2) continue;
    if (block.length > maxBlockSize) {
      skippedBlocks++;
      continue;
    }
    for (let i = 0; i < block.length; i++) {
      for (let j = i + 1; j < block.length; j++) {
        const x = block[i] as number;
        const y = block[j] as number;
        const pairKey = x < y ? x * total + y : y * total + x;
        if (seen.has(pairKey)) continue;
        seen.add(pairKey);
        const first = records[x] as MatchRecord;
        const second = records[y] as MatchRecord;
        const [a, b] = first.id < second.id ? [first, second] : [second, first];
        const scored = scorePair(a, b);
        if (scored.score >= minScore) pairs.push({ a: a.id, b: b.id, ...scored });
      }
    }
  }
  pairs.sort((p, q) => q.score - p.score || compare(p.a, q.a) || compare(p.b, q.b));
  return { pairs, comparisons: seen.size, skippedBlocks };
}

function compare(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
