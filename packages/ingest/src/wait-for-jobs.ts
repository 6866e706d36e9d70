import type { Queue, QueueEvents } from 'bullmq';
import type { IngestJobData, IngestJobResult } from './queue.js';

export type WaitOutcome = {
  results: IngestJobResult[];
  failed: Array<{ jobId: string; reason: string }>;
  timedOut: boolean;
  pending: number;
};

type Settlement = { ok: true; result: IngestJobResult } | { ok: false; reason: string };

/**
 * Waits until every job has completed or failed for good (retries exhausted). Completion is heard from
 * QueueEvents; a job that finished before we listened is found by asking Redis for its state. Only the
 * state and the result are read, never the job data: a batch's data is a megabyte of events, and pulling
 * every one back would cost the waiting process as much as producing them did.
 */
export async function waitForJobs(
  queue: Queue<IngestJobData, IngestJobResult>,
  queueEvents: QueueEvents,
  jobIds: ReadonlyArray<string>,
  options: { timeoutMs: number; onProgress?: (done: number, total: number) => void },
): Promise<WaitOutcome> {
  const outcome: WaitOutcome = { results: [], failed: [], timedOut: false, pending: jobIds.length };
  const waiting = new Set(jobIds);
  let resolveAll: () => void = () => {};
  const allSettled = new Promise<void>((resolve) => {
    resolveAll = resolve;
  });

  const settle = (jobId: string, settlement: Settlement) => {
    if (!waiting.delete(jobId)) return;
    outcome.pending -= 1;
    if (settlement.ok) outcome.results.push(settlement.result);
    else outcome.failed.push({ jobId, reason: settlement.reason });
    options.onProgress?.(jobIds.length - waiting.size, jobIds.length);
    if (waiting.size === 0) resolveAll();
  };
  // QueueEvents parses the return value; the 'failed' event only fires once retries are exhausted.
  const onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) =>
    settle(jobId, { ok: true, result: returnvalue as IngestJobResult });
  const onFailed = ({ jobId, failedReason }: { jobId: string; failedReason: string }) =>
    settle(jobId, { ok: false, reason: failedReason });
  queueEvents.on('completed', onCompleted);
  queueEvents.on('failed', onFailed);

  let timer: NodeJS.Timeout | undefined;
  try {
    await queueEvents.waitUntilReady();
    // Listening now: whatever finishes from here on is heard. Catch up on jobs that finished before.
    await Promise.all(
      [...waiting].map(async (jobId) => {
        const settlement = await finishedSettlement(queue, jobId);
        if (settlement) settle(jobId, settlement);
      }),
    );
    if (waiting.size === 0) return outcome;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        outcome.timedOut = true;
        resolve();
      }, options.timeoutMs);
    });
    await Promise.race([allSettled, timedOut]);
    return outcome;
  } finally {
    clearTimeout(timer);
    queueEvents.off('completed', onCompleted);
    queueEvents.off('failed', onFailed);
  }
}

/** How a job ended, or undefined while it is still waiting, active or delayed for a retry. */
async function finishedSettlement(
  queue: Queue<IngestJobData, IngestJobResult>,
  jobId: string,
): Promise<Settlement | undefined> {
  const state = await queue.getJobState(jobId);
  if (state === 'unknown') return { ok: false, reason: 'job vanished from the queue (Redis lost it?)' };
  if (state !== 'completed' && state !== 'failed') return undefined;
  // The job hash's result fields, without its data (Queue has no getter that leaves the data out).
  const client = await queue.client;
  const [returnvalue, failedReason] = await client.hmget(queue.toKey(jobId), 'returnvalue', 'failedReason');
  if (state === 'failed') return { ok: false, reason: failedReason ?? 'failed' };
  return { ok: true, result: JSON.parse(returnvalue ?? 'null') as IngestJobResult };
}
