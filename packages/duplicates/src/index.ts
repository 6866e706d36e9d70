// Duplicate detection (docs/ingestion.md, "Finding duplicates"): pure, no I/O.
export {
  normalizeRecord,
  normalizeName,
  normalizePhones,
  normalizeStreet,
  websiteDomain,
  type MatchInput,
  type MatchRecord,
} from './normalize.js';
export {
  DEFAULT_MIN_SCORE,
  WEIGHTS,
  distanceMetres,
  scoreOf,
  scorePair,
  type Evidence,
  type ScoredPair,
} from './score.js';
export {
  DEFAULT_MAX_BLOCK_SIZE,
  blockingKeys,
  findCandidatePairs,
  type CandidatePair,
  type MatchOptions,
  type MatchResult,
} from './matcher.js';
export { compareQuality, planMerges, type PlannedMerge, type RecordQuality } from './survivor.js';
export { pairMetrics, type PairMetrics } from './metrics.js';
