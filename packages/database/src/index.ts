export {
  createDatabase,
  ensureDatabaseExists,
  isDatabaseUnavailableError,
  type Database,
} from './connection.js';
export { migrateToLatest } from './migrator.js';
