export { createDatabase, ensureDatabaseExists, type Database } from './connection.js';
export { migrateToLatest, migrateDownAll } from './migrator.js';
export type * from './schema.js';
