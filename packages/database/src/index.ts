export {
  applySessionDefaults,
  createDatabase,
  ensureDatabaseExists,
  isDatabaseUnavailableError,
  withCommandDatabase,
  type Database,
  type SessionDefaults,
} from './connection.js';
export { migrateToLatest, prepareDatabase } from './migrator.js';
export { traceDatabaseQueries } from './query-spans.js';
