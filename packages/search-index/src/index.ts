export { createSearchClient, type SearchClient } from './client.js';
export {
  concreteIndexName,
  createDoctorsIndex,
  ensureDoctorsIndex,
  indexShapeSettings,
  indicesBehindAlias,
  type IndexShape,
} from './indices.js';
export {
  classifyBulkItemFailure,
  writeProjections,
  writeSerializedProjections,
  ProjectionError,
  type BulkItemOutcome,
  type Projection,
  type ProjectionResult,
  type RefusedProjection,
  type WriteProjectionsResult,
} from './projection.js';
