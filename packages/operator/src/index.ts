export { reindex } from './reindex.service.js';
