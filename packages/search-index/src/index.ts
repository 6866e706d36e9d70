export { createSearchClient, type SearchClient } from './client.js';
export { DOCTORS_MAPPING, DOCTORS_SETTINGS } from './mapping.js';
export { concreteIndexName, createDoctorsIndex, ensureDoctorsIndex, indicesBehindAlias } from './indices.js';
export {
  writeProjections,
  writeSerializedProjections,
  ProjectionError,
  type Projection,
  type ProjectionResult,
  type SerializedProjection,
} from './projection.js';
