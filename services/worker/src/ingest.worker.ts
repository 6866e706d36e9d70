import { DelayedError, Worker, type Job, type Span } from 'bullmq';
import type { Logger } from 'pino';
import {
  INGEST_BACKOFF_TYPE,
  INGEST_QUEUE_NAME,
  SPENT_BATCH,
  batchItems,
  cappedBackoffDelay,
  ingestBatch,
  sweepLaggingPlaces,
  traceJob,
  type ProjectOutcome,
  type IngestJobData,
  type IngestJobResult,
  type ProjectorDependencies,
  type QueueConnection,
} from '@directory/ingest';
import { FEED_CLOCK_INTERVAL_MS, recordFeedClock } from '@directory/event-store';
import { every } from './every.js';

export type IngestWorkerOptions = {
  queue: QueueConnection;
  concurrency: number;
  lockDurationMs: number;
  sweepIntervalMs: number;
  /** Lag younger than this is left to the job that stored it (`SWEEP_GRACE_MS`). */
  sweepGraceMs: number;
  /** How long a sweep's claim on a page of lagging places lasts if its worker dies on it. */
  sweepClaimMs: number;
  /** Told of every sweep round begun (start-up and periodic) and of each page it refolds: metrics. */
  onSweep?: { round: () => void; page: (page: ProjectOutcome) => void };
  /** Retry delays for infrastructure errors: doubling from `baseMs`, capped at `maxMs`. */
  retry: { baseMs: number; maxMs: number };
  /** How often a job may be found stalled (its worker died on it) before it is failed for an operator. */
  maxStalledCount: number;
  logger: Logger;
  /** False while a dependency is down (see readiness-gate.ts); a job taken meanwhile is handed back. */
  takingJobs?: () => boolean;
};

// How soon a handed-back job is offered again.
const HAND_BACK_DELAY_MS = 1_000;

/**
 * A BullMQ worker that takes its next job with a call of its own rather than in the reply that completes
 * the last one. BullMQ checks that reply with `result < 0`, and when it carries the next job that turns
 * the whole job (its data: a batch of about 1 MB) into one string, a cost per job measured by
 * `npm run bench:ingest` (docs/benchmarks.md). The separate fetch costs one Redis round trip per job
 * instead.
 */
class SeparateFetchWorker<Data, Result> extends Worker<Data, Result> {
  protected override handleCompleted(
    result: Result,
    job: Job<Data, Result>,
    token: string,
    _fetchNext?: () => boolean,
    span?: Span,
  ): Promise<Job<Data, Result>> {
    return super.handleCompleted(result, job, token, () => false, span);
  }
}

export type RunningWorker = {
  worker: Worker<IngestJobData, IngestJobResult>;
  /**
   * Stops taking jobs and waits for in-flight ones; with `force`, abandons them instead (their locks
   * expire and another worker retries them: appends are idempotent).
   */
  close: (options?: { force?: boolean }) => Promise<void>;
};

/**
 * The thin shell around the pipeline: BullMQ hands a batch to `ingestBatch` (infrastructure errors throw
 * and are retried by BullMQ without end, at a capped backoff), and a sweeper re-projects anything the
 * index lags behind on an interval.
 */
export function startIngestWorker(deps: ProjectorDependencies, options: IngestWorkerOptions): RunningWorker {
  const { logger } = options;
  const worker = new SeparateFetchWorker<IngestJobData, IngestJobResult>(
    INGEST_QUEUE_NAME,
    async (job, token) => {
      if (options.takingJobs?.() === false && token !== undefined) {
        // Fetched by a blocking read already in flight when the worker paused: give it back unspent.
        await job.moveToDelayed(Date.now() + HAND_BACK_DELAY_MS, token);
        throw new DelayedError();
      }
      const result = await traceJob(job, () => ingestBatch(deps, batchItems(job.data)));
      logger.debug({ jobId: job.id, ...result }, 'batch ingested');
      if (result.projectionFailures > 0)
        logger.warn(
          { jobId: job.id, refused: result.projectionFailures },
          'index refused documents; recorded as projection failures (npm run dead-letters -- projections)',
        );
      return result;
    },
    {
      ...options.queue,
      concurrency: options.concurrency,
      // A crashed worker's job becomes available again once its lock lapses (stalled-job check); a job
      // whose worker was killed on it twice is retried, not failed, up to `maxStalledCount` times.
      lockDuration: options.lockDurationMs,
      stalledInterval: options.lockDurationMs,
      maxStalledCount: options.maxStalledCount,
      settings: {
        backoffStrategy: (attemptsMade, type) =>
          // Built-in types (jobs enqueued before this policy) never reach here; an unknown one fails (-1).
          type === INGEST_BACKOFF_TYPE ? cappedBackoffDelay(attemptsMade, options.retry) : -1,
      },
    },
  );
  // The batch is stored; the job keeps its result for the hour it stays, not the batch (a failed job keeps
  // it, for an operator's retry). Best effort: a job already removed has nothing to empty.
  worker.on('completed', (job) => {
    job.updateData(SPENT_BATCH).catch(() => undefined);
  });
  worker.on('failed', (job, error) => {
    const attempts = job?.opts.attempts ?? 1;
    // A job over the stall limit is failed for good with an UnrecoverableError, whatever its attempts.
    if (job && error.name !== 'UnrecoverableError' && job.attemptsMade < attempts)
      logger.warn(
        {
          jobId: job.id,
          attempt: job.attemptsMade,
          retryInMs: job.delay,
          err: error.message,
        },
        'batch failed; will retry',
      );
    else
      logger.error(
        { jobId: job?.id, attempt: job?.attemptsMade, err: error.message },
        'batch FAILED and will not be retried automatically; see npm run jobs -- failed',
      );
  });
  // A job whose worker died on it; past WORKER_MAX_STALLED_COUNT stalls BullMQ fails it ('failed' above).
  worker.on('stalled', (jobId) =>
    logger.warn(
      { jobId, maxStalledCount: options.maxStalledCount },
      'batch stalled (its worker died); back in the queue unless over the stall limit (npm run jobs -- failed)',
    ),
  );
  worker.on('error', (error) => logger.error({ err: error.message }, 'worker error'));

  // A first sweep at start-up picks up whatever a crash left behind (lag younger than the grace at the
  // next sweep after it ages); a sweeper stuck on a hanging dependency skips its ticks instead of
  // queueing sweeps behind it.
  const sweeper = every(
    options.sweepIntervalMs,
    async () => {
      // Claimed page by page, so the workers running share the lagging places (projector.service.ts).
      options.onSweep?.round();
      const { refolded, projected, refused } = await sweepLaggingPlaces(deps, {
        graceMs: options.sweepGraceMs,
        claimForMs: options.sweepClaimMs,
        onPage: options.onSweep?.page,
      });
      if (refolded > 0) logger.info({ refolded, projected }, 'sweeper re-projected lagging places');
      if (refused.length > 0)
        logger.warn(
          { refused: refused.length, places: refused.slice(0, 5).map((failure) => failure.placeId) },
          'index refused documents; recorded as projection failures (npm run dead-letters -- projections)',
        );
    },
    (error) => logger.warn({ err: error }, 'sweep failed; next interval retries'),
  );

  // The feed clock lets a changes-feed consumer start at an instant (event-store feed-clock.repository.ts):
  // the workers writing the store also note, every few seconds, which transactions had finished by when.
  const feedClock = every(
    FEED_CLOCK_INTERVAL_MS,
    () => recordFeedClock(deps.db),
    (error) => logger.debug({ err: error }, 'feed clock not recorded; next interval retries'),
  );

  return {
    worker,
    close: async ({ force = false } = {}) => {
      const sweepStopped = sweeper.close({ wait: !force });
      const clockStopped = feedClock.close({ wait: !force });
      // close() waits for in-flight jobs to finish before resolving (unless forced).
      await worker.close(force);
      await Promise.all([sweepStopped, clockStopped]);
    },
  };
}
