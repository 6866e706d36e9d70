import type { Queue, QueueEvents } from 'bullmq';
import type { IngestJobData, IngestJobResult } from './queue.js';

export type WaitOutcome = {
  results: IngestJobResult[];
  failed: Array<{ jobId: string; reason: string }>;
  timedOut: boolean;
  pending: number;
};

/**
 * Waits until every job has completed or failed for good (retries exhausted). Completion is heard from
 * QueueEvents; a job that finished before we listened is found by asking the queue for its state.
 */
export async function waitForJobs(
  queue: Queue<IngestJobData, IngestJobResult>,
  queueEvents: QueueEvents,
  jobIds: ReadonlyArray<string>,
  options: { timeoutMs: number; onProgress?: (done: number, total: number) => void },
): Promise<WaitOutcome> {
  const outcome: WaitOutcome = { results: [], failed: [], timedOut: false, pending: jobIds.length };
  const deadline = Date.now() + options.timeoutMs;
  let done = 0;
  await Promise.all(
    jobIds.map(async (jobId) => {
      const job = await queue.getJob(jobId);
      if (!job) {
        outcome.failed.push({ jobId, reason: 'job vanished from the queue (Redis lost it?)' });
        return;
      }
      const remaining = Math.max(deadline - Date.now(), 1);
      try {
        outcome.results.push(await job.waitUntilFinished(queueEvents, remaining));
        outcome.pending -= 1;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (/timed out/i.test(reason)) outcome.timedOut = true;
        else {
          outcome.pending -= 1;
          outcome.failed.push({ jobId, reason });
        }
      } finally {
        done += 1;
        options.onProgress?.(done, jobIds.length);
      }
    }),
  );
  return outcome;
}
