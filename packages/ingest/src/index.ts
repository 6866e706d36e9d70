export {
  INGEST_QUEUE_NAME,
  INGEST_BACKOFF_TYPE,
  cappedBackoffDelay,
  createIngestQueue,
  type IngestItem,
  type IngestJobData,
  type IngestJobResult,
  type QueueConnection,
} from './queue.js';
export { ingestBatch } from './ingest.service.js';
export {
  foldToRow,
  refoldAndProject,
  sweepLaggingPlaces,
  type ProjectOutcome,
  type SweepOutcome,
  type ProjectorDependencies,
} from './projector.service.js';
export {
  MAX_LINE_CHARACTERS,
  produceFromNdjson,
  type EnqueuedBatch,
  type ProduceSummary,
  type Rejection,
} from './producer.js';
export { waitForJobs, type KeptBatches, type WaitOptions, type WaitOutcome } from './wait-for-jobs.js';
export { describeRun, summarizeRun, type RunSummary } from './run-summary.js';
export {
  reindex,
  leftoverIndices,
  ReindexCatchUpError,
  ReindexSwapUnknownError,
  type ReindexOptions,
  type ReindexProgress,
  type ReindexSummary,
} from './reindex.service.js';
export {
  redriveDeadLetters,
  retryProjectionFailures,
  type ProjectionRetryResult,
  type RedriveResult,
} from './redrive.service.js';
export {
  listFailedJobs,
  retryFailedJobs,
  type FailedJob,
  type RetryFailedResult,
} from './failed-jobs.service.js';
