export {
  InvalidCursorError,
  MAX_DOCTOR_ID_LENGTH,
  SearchUnavailableError,
  createDirectory,
  type Directory,
} from './directory.service.js';
export {
  createSearchRequestCache,
  type SearchCacheOptions,
  type SearchCacheStats,
  type SearchRequestCache,
} from './search-request-cache.js';
