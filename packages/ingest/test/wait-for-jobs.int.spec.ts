import { afterAll, describe, expect, it } from 'vitest';
import { createTestQueue } from '@directory/testing';
import type { IngestJobData, IngestJobResult } from '../src/queue.js';
import { startWaitingForJobs } from '../src/wait-for-jobs.js';

// A backfill's first jobs finish while the rest of its input is still being read, and Redis keeps a
// completed job only so long (the ingest queue: the last 10,000, for an hour). Here Redis forgets each job
// the moment it is done, the extreme of that: the wait must still count each as completed once, and
// enqueue none of them again as if Redis had lost it.
describe('waiting for the jobs of a long input, on the real Redis', () => {
  const processed: string[] = [];
  const result: IngestJobResult = {
    received: 1,
    stored: 1,
    duplicates: 0,
    deadLettered: 0,
    projected: 1,
    projectionFailures: 0,
  };
  const { queue, events, cleanup } = createTestQueue<IngestJobData, IngestJobResult>('ingest-wait', (job) => {
    processed.push(job.id ?? '');
    return Promise.resolve(result);
  });
  afterAll(() => cleanup());

  it('settles jobs that finished and left Redis before the input ended, and enqueues none again', async () => {
    await events.waitUntilReady();
    const kept = new Map<string, IngestJobData>();
    const waiter = startWaitingForJobs(queue, events, {
      timeoutMs: 20_000,
      batches: kept,
      pollIntervalMs: 100,
    });
    const ids = Array.from({ length: 6 }, (_, index) => `batch-${index}`);
    for (const [index, jobId] of ids.entries()) {
      const data: IngestJobData = { items: [{ raw: { eventId: jobId }, source: `input:${index + 1}` }] };
      kept.set(jobId, data);
      await queue.add('batch', data, { jobId, removeOnComplete: true });
      // Every other job is added after Redis took it, as the producer adds them.
      if (index % 2 === 0) waiter.add([jobId]);
      else setTimeout(() => waiter.add([jobId]), 50);
    }
    // The input is read to its end only once every job is done and gone from Redis.
    for (
      let waited = 0;
      processed.length < ids.length || ((await queue.getJobCounts('completed')).completed ?? 0) > 0;
      waited += 50
    ) {
      expect(waited, 'the worker did not finish the jobs').toBeLessThan(15_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));

    const outcome = await waiter.wait();
    expect(outcome).toMatchObject({
      completed: ids.length,
      failed: [],
      requeued: 0,
      pending: 0,
      timedOut: false,
    });
    expect(processed).toEqual(ids);
    // Each batch left the spool as its job finished.
    expect(kept.size).toBe(0);
  });
});
