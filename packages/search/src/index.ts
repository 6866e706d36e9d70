export {
  InvalidCursorError,
  MAX_DOCTOR_ID_LENGTH,
  SearchUnavailableError,
  createDirectory,
  type Directory,
  type VersionedPage,
  type VersionedRecord,
} from './directory.service.js';
export {
  INITIAL_WATCH_MEMORY,
  fingerprintOf,
  indexStateAt,
  observeProbe,
  watchIndexChanges,
  type IndexChangeWatch,
  type IndexState,
  type WatchMemory,
} from './index-change-watch.js';
export {
  createSearchRequestCache,
  type RequestAdmission,
  type SearchCacheAdmission,
  type SearchCacheOptions,
  type SearchCacheStats,
  type SearchRequestCache,
} from './search-request-cache.js';
export { datasetOf, type Dataset, type Datasets } from './datasets.js';
export { searchServiceProblemMappings } from './problem-mappings.js';
export {
  runSearchService,
  searchServiceDependencies,
  type SearchServiceDependencies,
} from './search-service.js';
export { openSearchStores, type SearchStores } from './search-stores.js';
