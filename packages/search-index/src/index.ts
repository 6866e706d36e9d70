export { createSearchClient, type SearchClient } from './client.js';
export {
  concreteIndexName,
  createDoctorsIndex,
  ensureDoctorsIndex,
  indexShapeSettings,
  indicesBehindAlias,
  waitForIndexHealth,
  type IndexHealth,
  type IndexShape,
} from './indices.js';
export {
  writeProjections,
  writeSerializedProjections,
  type Projection,
  type RefusedProjection,
} from './projection.js';
export { elasticsearchCheck } from './readiness-check.js';
