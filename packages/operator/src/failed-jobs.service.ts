import type { Queue } from 'bullmq';
import { batchItemCount, type IngestJobData, type IngestJobResult } from '@directory/ingest';

/** A batch BullMQ gave up on: the worker died on it too often, or it was enqueued under an older policy. */
export type FailedJob = {
  id: string;
  failedAt: Date | null;
  attemptsMade: number;
  events: number;
  reason: string;
};

type IngestQueue = Queue<IngestJobData, IngestJobResult>;

const PAGE_SIZE = 100;

/** Failed ingest jobs, most recently failed first. */
export async function listFailedJobs(queue: IngestQueue, options: { limit: number }): Promise<FailedJob[]> {
  const jobs = await queue.getFailed(0, options.limit - 1);
  return jobs.map((job) => ({
    id: job.id ?? '?',
    failedAt: job.finishedOn ? new Date(job.finishedOn) : null,
    attemptsMade: job.attemptsMade,
    events: batchItemCount(job.data),
    reason: job.failedReason,
  }));
}

export type RetryFailedResult = { retried: string[]; notFailed: string[] };

/**
 * Moves failed jobs back to the queue with their attempt counters reset, so they get a full retry budget
 * again. Safe to repeat: appends are idempotent and dead letters fingerprinted. A job that is not (or no
 * longer) failed is reported, not touched.
 */
export async function retryFailedJobs(
  queue: IngestQueue,
  ids: ReadonlyArray<string> | 'all',
): Promise<RetryFailedResult> {
  const result: RetryFailedResult = { retried: [], notFailed: [] };
  const retry = async (id: string) => {
    const job = await queue.getJob(id);
    if (!job || (await job.getState()) !== 'failed') {
      result.notFailed.push(id);
      return;
    }
    // retry() resets the attempt counters but not the stall counter (`stc`): without this, the next
    // worker death on a retried job would fail it again at once.
    await (await queue.client).hdel(queue.toKey(id), 'stc');
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    result.retried.push(id);
  };
  if (ids !== 'all') {
    for (const id of ids) await retry(id);
    return result;
  }
  // Retried jobs leave the failed set, so the first page is always the next one to take.
  for (;;) {
    const page = await queue.getFailed(0, PAGE_SIZE - 1);
    const pageIds = page.map((job) => job.id).filter((id): id is string => id !== undefined);
    if (pageIds.length === 0) return result;
    const before = result.retried.length;
    for (const id of pageIds) await retry(id);
    if (result.retried.length === before) return result;
  }
}
