export {
  aliasSearchRequest,
  countServedDocuments,
  isIndexNotFound,
  multiSearchAlias,
  readCityTable,
  readDatasetCoverage,
  readIndexingStats,
  searchableVersionOf,
  searchAlias,
  searchOptions,
  type AliasSearchOutcome,
  type AliasSearchRequest,
  type AliasSearchResponse,
  type IndexingStats,
} from './alias-reads.js';
export { createSearchClient, type SearchClient } from './client.js';
export {
  concreteIndexName,
  concreteIndices,
  createDoctorsIndex,
  ensureDoctorsIndex,
  indexShapeSettings,
  indicesBehindAlias,
  waitForIndexHealth,
  type IndexHealth,
  type IndexShape,
} from './indices.js';
export {
  currentVersionOf,
  writeProjections,
  writeSerializedProjections,
  type NewerInIndex,
  type Projection,
  type RefusedProjection,
} from './projection.js';
export { elasticsearchCheck } from './readiness-check.js';
export {
  MERGED_SEGMENT_BYTES,
  mergedSegmentsPerShard,
  mergeSegments,
  type MergeOutcome,
} from './segments.js';
export {
  ensureStoreMarksIndex,
  flagStoreBehindIndex,
  placeAheadReason,
  placesAheadOfStore,
  readStoreMarks,
  resetStoreMarks,
  storeBehindIndex,
  storeMarksIndexName,
  STORE_BEHIND_REPAIR,
  type PlaceAheadOfStore,
  type StoreBehind,
  type StoreMarks,
} from './store-marks.js';
