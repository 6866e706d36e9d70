export { createSearchClient, type SearchClient } from './client.js';
export { concreteIndexName, createDoctorsIndex, ensureDoctorsIndex, indicesBehindAlias } from './indices.js';
export { writeProjections, writeSerializedProjections, type Projection } from './projection.js';
