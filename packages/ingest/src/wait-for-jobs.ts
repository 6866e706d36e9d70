import type { Queue, QueueEvents } from 'bullmq';
import { fail, ok, type Result } from '@directory/domain';
import { addBatches, BATCHES_PER_ADD, type EnqueuedBatch } from './producer.js';
import type { IngestJobData, IngestJobResult } from './queue.js';

export type WaitOutcome = {
  results: IngestJobResult[];
  failed: Array<{ jobId: string; reason: string }>;
  timedOut: boolean;
  pending: number;
  /** Batches Redis lost (restarted, evicted) and that were enqueued again from `batches`. */
  requeued: number;
};

export type WaitOptions = {
  timeoutMs: number;
  onProgress?: (done: number, total: number) => void;
  /**
   * The data of every job waited for. With it, a job Redis no longer knows is enqueued again under the
   * same id (appends are idempotent, so a batch done twice stores nothing twice); without it, such a job
   * counts as failed. Entries are dropped as their jobs finish.
   */
  batches?: KeptBatches;
  onRequeue?: (jobIds: ReadonlyArray<string>) => void;
  /** Called when Redis cannot be asked (connection lost); the wait goes on until the timeout. */
  onRedisTrouble?: (error: Error) => void;
  /** How often unfinished jobs are looked up, besides listening for their events. */
  pollIntervalMs?: number;
};

/** Where waited-for batches are kept (a Map, or a `BatchSpool` on disk). */
export type KeptBatches = {
  has: (jobId: string) => boolean;
  get: (jobId: string) => IngestJobData | undefined | Promise<IngestJobData | undefined>;
  delete: (jobId: string) => unknown;
};

/** How a job ended for good: its result, or why it failed. */
type Settlement = Result<IngestJobResult>;
type JobLookup = Settlement | 'unfinished' | 'unknown';

/**
 * Waits until every job has completed or failed for good. Completion is heard from QueueEvents, and
 * every unfinished job is also looked up on an interval: that catches jobs that finished before we
 * listened, events missed while the connection was down, and jobs Redis lost (a restart without
 * persistence), which are enqueued again from `batches`. Only the state and the result are read, never
 * the job data: a batch's data is a megabyte of events.
 */
export async function waitForJobs(
  queue: Queue<IngestJobData, IngestJobResult>,
  queueEvents: QueueEvents,
  jobIds: ReadonlyArray<string>,
  options: WaitOptions,
): Promise<WaitOutcome> {
  const outcome: WaitOutcome = {
    results: [],
    failed: [],
    timedOut: false,
    pending: jobIds.length,
    requeued: 0,
  };
  const waiting = new Set(jobIds);
  let resolveAll: () => void = () => {};
  const allSettled = new Promise<void>((resolve) => {
    resolveAll = resolve;
  });

  const settle = (jobId: string, settlement: Settlement) => {
    if (!waiting.delete(jobId)) return;
    options.batches?.delete(jobId);
    outcome.pending -= 1;
    if (settlement.ok) outcome.results.push(settlement.value);
    else outcome.failed.push({ jobId, reason: settlement.error });
    options.onProgress?.(jobIds.length - waiting.size, jobIds.length);
    if (waiting.size === 0) resolveAll();
  };
  // QueueEvents parses the return value; the 'failed' event only fires once retries are exhausted.
  const onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) =>
    settle(jobId, ok(returnvalue as IngestJobResult));
  const onFailed = ({ jobId, failedReason }: { jobId: string; failedReason: string }) =>
    settle(jobId, fail(failedReason));
  queueEvents.on('completed', onCompleted);
  queueEvents.on('failed', onFailed);

  const lookUpAll = async () => {
    const lost: string[] = [];
    await Promise.all(
      [...waiting].map(async (jobId) => {
        const lookup = await lookUpJob(queue, jobId);
        if (lookup === 'unfinished') return;
        if (lookup !== 'unknown') return settle(jobId, lookup);
        if (options.batches?.has(jobId)) lost.push(jobId);
        else settle(jobId, fail('job vanished from the queue (Redis lost it?)'));
      }),
    );
    if (lost.length === 0) return;
    // Read back and enqueue a few batches at a time: a Redis restart may have lost thousands of them,
    // and holding them all at once would undo what the spool is for (flat memory).
    for (let start = 0; start < lost.length; start += BATCHES_PER_ADD) {
      const group: EnqueuedBatch[] = [];
      for (const jobId of lost.slice(start, start + BATCHES_PER_ADD)) {
        const data = await options.batches?.get(jobId);
        if (data) group.push({ jobId, data });
      }
      await addBatches({ queue, enqueueRetryMs: 0 }, group);
      outcome.requeued += group.length;
    }
    options.onRequeue?.(lost);
  };

  let timer: NodeJS.Timeout | undefined;
  let polling = true;
  let stopPolling: () => void = () => {};
  const pollingStopped = new Promise<void>((resolve) => {
    stopPolling = resolve;
  });
  const poll = async () => {
    while (polling && waiting.size > 0) {
      try {
        await lookUpAll();
      } catch (error) {
        options.onRedisTrouble?.(error instanceof Error ? error : new Error(String(error)));
      }
      let pause: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise((resolve) => (pause = setTimeout(resolve, options.pollIntervalMs ?? 2_000))),
        pollingStopped,
      ]);
      clearTimeout(pause);
    }
  };
  try {
    await queueEvents.waitUntilReady();
    // Listening now: whatever finishes from here on is heard. The first look-up catches up on the rest.
    // Never rejects (errors are reported); not awaited at the end, so a look-up stuck on a dead
    // connection cannot hold the outcome past the timeout.
    void poll();
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        outcome.timedOut = true;
        resolve();
      }, options.timeoutMs);
    });
    if (waiting.size > 0) await Promise.race([allSettled, timedOut]);
    polling = false;
    stopPolling();
    return outcome;
  } finally {
    polling = false;
    stopPolling();
    clearTimeout(timer);
    queueEvents.off('completed', onCompleted);
    queueEvents.off('failed', onFailed);
  }
}

/** How a job ended, 'unfinished' while it is waiting, active or delayed, 'unknown' if Redis lost it. */
async function lookUpJob(queue: Queue<IngestJobData, IngestJobResult>, jobId: string): Promise<JobLookup> {
  const state = await queue.getJobState(jobId);
  if (state === 'unknown') return 'unknown';
  if (state !== 'completed' && state !== 'failed') return 'unfinished';
  // The job hash's result fields, without its data (Queue has no getter that leaves the data out).
  const client = await queue.client;
  const [returnvalue, failedReason] = await client.hmget(queue.toKey(jobId), 'returnvalue', 'failedReason');
  if (state === 'failed') return fail(failedReason ?? 'failed');
  return ok(JSON.parse(returnvalue ?? 'null') as IngestJobResult);
}
