import { DelayedError, Worker } from 'bullmq';
import type { Logger } from 'pino';
import {
  INGEST_QUEUE_NAME,
  ingestBatch,
  sweepLaggingPlaces,
  type IngestJobData,
  type IngestJobResult,
  type ProjectorDependencies,
  type QueueConnection,
} from '@directory/ingest';

export type IngestWorkerOptions = {
  queue: QueueConnection;
  concurrency: number;
  lockDurationMs: number;
  sweepIntervalMs: number;
  logger: Logger;
  /** False while a dependency is down (see readiness-gate.ts); a job taken meanwhile is handed back. */
  takingJobs?: () => boolean;
};

// How soon a handed-back job is offered again.
const HAND_BACK_DELAY_MS = 1_000;

export type RunningWorker = { worker: Worker<IngestJobData, IngestJobResult>; close: () => Promise<void> };

/**
 * The thin shell around the pipeline: BullMQ hands a batch to `ingestBatch` (infrastructure errors throw
 * and are retried by BullMQ), and a sweeper re-projects anything the index lags behind on an interval.
 */
export function startIngestWorker(deps: ProjectorDependencies, options: IngestWorkerOptions): RunningWorker {
  const { logger } = options;
  const worker = new Worker<IngestJobData, IngestJobResult>(
    INGEST_QUEUE_NAME,
    async (job, token) => {
      if (options.takingJobs?.() === false && token !== undefined) {
        // Fetched by a blocking read already in flight when the worker paused: give it back unspent.
        await job.moveToDelayed(Date.now() + HAND_BACK_DELAY_MS, token);
        throw new DelayedError();
      }
      const result = await ingestBatch(deps, job.data.items);
      logger.debug({ jobId: job.id, ...result }, 'batch ingested');
      return result;
    },
    {
      ...options.queue,
      concurrency: options.concurrency,
      // A crashed worker's job becomes available again once its lock lapses (stalled-job check).
      lockDuration: options.lockDurationMs,
      stalledInterval: options.lockDurationMs,
    },
  );
  worker.on('failed', (job, error) => {
    logger.warn(
      { jobId: job?.id, attempt: job?.attemptsMade, err: error.message },
      'batch failed; will retry',
    );
  });
  worker.on('error', (error) => logger.error({ err: error.message }, 'worker error'));

  let sweeping: Promise<void> = Promise.resolve();
  const sweep = async () => {
    try {
      const projected = await sweepLaggingPlaces(deps);
      if (projected > 0) logger.info({ projected }, 'sweeper re-projected lagging places');
    } catch (error) {
      logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'sweep failed; next interval retries',
      );
    }
  };
  const timer = setInterval(() => {
    sweeping = sweeping.then(sweep);
  }, options.sweepIntervalMs);
  // A first sweep at start-up picks up whatever a crash left behind.
  sweeping = sweeping.then(sweep);

  return {
    worker,
    close: async () => {
      clearInterval(timer);
      // close() waits for in-flight jobs to finish before resolving.
      await worker.close();
      await sweeping;
    },
  };
}
