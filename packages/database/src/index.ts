export {
  createDatabase,
  ensureDatabaseExists,
  isDatabaseUnavailableError,
  DEFAULT_DATABASE_TIMEOUTS,
  type Database,
  type DatabaseTimeouts,
} from './connection.js';
export { migrateToLatest, migrateDownAll } from './migrator.js';
export type * from './schema.js';
