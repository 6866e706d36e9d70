import { Queue, QueueEvents, Worker } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestRedis } from '@directory/testing';

// Foundation smoke test: a job travels through a real Redis with BullMQ and its result comes back.
describe('BullMQ on the local Redis', () => {
  const redis = createTestRedis('bullmq-smoke');
  const connection = { url: redis.url };
  const queue = new Queue('smoke', { connection, prefix: redis.prefix });
  // From the start of the (spec-owned, empty) event stream, not from its end ('$', the default): the
  // first read may be sent after the job has already completed on a busy machine, and the completion
  // would then never be heard.
  const events = new QueueEvents('smoke', { connection, prefix: redis.prefix, lastEventId: '0-0' });
  const worker = new Worker<{ numbers: number[] }, number>(
    'smoke',
    (job) => Promise.resolve(job.data.numbers.reduce((sum, value) => sum + value, 0)),
    { connection, prefix: redis.prefix },
  );

  afterAll(async () => {
    await worker.close();
    await events.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await redis.cleanup();
  });

  it('processes a job and reports its return value', async () => {
    await events.waitUntilReady();
    const job = await queue.add('sum', { numbers: [1, 2, 39] });
    await expect(job.waitUntilFinished(events, 10_000)).resolves.toBe(42);
    expect(await queue.getJobCounts('completed')).toEqual({ completed: 1 });
  });
});
