export {
  INGEST_QUEUE_NAME,
  INGEST_BACKOFF_TYPE,
  SPENT_BATCH,
  batchItemCount,
  batchItems,
  cappedBackoffDelay,
  createIngestQueue,
  type IngestItem,
  type IngestJobData,
  type IngestJobResult,
  type QueueConnection,
} from './queue.js';
export { ingestBatch } from './ingest.service.js';
export { traceJob } from './job-trace.js';
export {
  refoldAndProject,
  sweepLaggingPlaces,
  type ProjectOutcome,
  type ProjectorDependencies,
  type SweepOutcome,
} from './projector.service.js';
export { produceFromNdjson } from './producer.js';
export { waitForJobs } from './wait-for-jobs.js';
export { describeRun, type RunSummary } from './run-summary.js';
export { readStoreBehindIndex } from './store-divergence.js';
export {
  QUEUE_STATES,
  ageSeconds,
  isWorkWaiting,
  readProjectorProgress,
  readQueueCounts,
  recordProjectorProgress,
  stalenessSeconds,
  type QueueCounts,
} from './projection-health.js';
export { readServedCounts, type ServedCounts } from './reconciliation.js';
