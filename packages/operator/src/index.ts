export {
  QUEUE_STATES,
  ageSeconds,
  isWorkWaiting,
  readProjectorProgress,
  readQueueCounts,
  recordProjectorProgress,
  stalenessSeconds,
} from './projection-health.js';
export { readServedCounts } from './reconciliation.js';
export { reindex } from './reindex.service.js';
