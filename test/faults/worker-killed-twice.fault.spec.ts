import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestQueue, type IngestJobData, type IngestJobResult } from '@directory/ingest';
import { eventually, waitForConvergence, type RunningProcess } from '@directory/testing';
import type { Queue } from 'bullmq';
import { sampleLines, startStorePipeline, type StorePipeline } from './store-pipeline.fixture.js';

// One job of 4,000 events, so both kills hit the same batch while a worker is processing it.
const EVENTS = 4_000;

describe('fault: the worker is SIGKILLed mid-batch, twice on the same job', () => {
  let pipeline: StorePipeline;
  let queue: Queue<IngestJobData, IngestJobResult>;
  const lines = sampleLines(EVENTS, 23);

  beforeAll(async () => {
    pipeline = await startStorePipeline('worker-killed-twice', {
      INGEST_BATCH_SIZE: String(EVENTS),
      WORKER_CONCURRENCY: '1',
    });
    queue = createIngestQueue({
      connection: { url: pipeline.env.REDIS_URL ?? '' },
      prefix: pipeline.redis.prefix,
    });
  });
  afterAll(async () => {
    await queue.close();
    await pipeline.cleanup();
  });

  /**
   * Kills the worker once it holds the job's lock: it took the job and is inside the batch. A lock left
   * by an earlier, killed worker does not count (the job stays `active` until a stall check moves it).
   */
  async function killWhileProcessing(worker: RunningProcess, jobId: string, previousLock: string | null) {
    let lock: string | null = null;
    await eventually(
      async () => {
        lock = await pipeline.redis.redis.get(`${queue.toKey(jobId)}:lock`);
        return lock !== null && lock !== previousLock && (await queue.getJobState(jobId)) === 'active';
      },
      60_000,
      `a new worker to take job ${jobId}`,
    );
    await worker.stop('SIGKILL');
    return lock;
  }

  it('retries the job after the second stall instead of failing it, and converges', async () => {
    const ingest = await pipeline.ingest(lines);
    expect(await ingest.exited, ingest.output()).toBe(0);
    const jobIds = (await queue.getJobs(['waiting', 'active', 'delayed'])).map((job) => job.id ?? '');
    expect(jobIds).toHaveLength(1);
    const jobId = jobIds[0] ?? '';

    const firstLock = await killWhileProcessing(await pipeline.startWorker(), jobId, null);
    await killWhileProcessing(await pipeline.startWorker(), jobId, firstLock);
    const survivor = await pipeline.startWorker();

    await eventually(
      async () => (await queue.getJobState(jobId)) === 'completed',
      120_000,
      'the third worker to complete the job',
    );
    // Both deaths were seen as stalls of this very job (BullMQ's counter), and it did not fail.
    const stalls = await pipeline.redis.redis.hget(queue.toKey(jobId), 'stc');
    expect(Number(stalls)).toBe(2);
    expect(await queue.getFailedCount()).toBe(0);
    expect(survivor.output()).toMatch(/batch stalled \(its worker died\)/);

    await waitForConvergence(pipeline.convergenceInput(lines), 60_000);
    expect(await survivor.stop('SIGTERM')).toBe(0);
  });
});
