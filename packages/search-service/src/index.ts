export { searchServiceProblemMappings } from './problem-mappings.js';
export { runSearchService, type SearchServiceDependencies } from './search-service.js';
