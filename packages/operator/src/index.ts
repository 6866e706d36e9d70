export {
  DEFAULT_THRESHOLDS,
  formatStatus,
  needsAttention,
  type AttentionThresholds,
  type StatusSnapshot,
} from './attention.js';
export {
  QUEUE_STATES,
  ageSeconds,
  isWorkWaiting,
  projectorProgressKey,
  readProjectorProgress,
  readQueueCounts,
  recordProjectorProgress,
  stalenessSeconds,
  type QueueCounts,
} from './projection-health.js';
export { readServedCounts, type ServedCounts } from './reconciliation.js';
export { readStatus, type StatusDependencies } from './status.service.js';
