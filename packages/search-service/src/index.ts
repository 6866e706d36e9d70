export { searchServiceProblemMappings } from './problem-mappings.js';
export {
  runSearchService,
  searchServiceDependencies,
  type SearchServiceDependencies,
} from './search-service.js';
export { openSearchStores, type SearchStores } from './search-stores.js';
