import { afterAll, describe, expect, it } from 'vitest';
import { createTestQueue } from '@directory/testing';

// Foundation smoke test: a job travels through a real Redis with BullMQ and its result comes back.
describe('BullMQ on the local Redis', () => {
  const { queue, events, cleanup } = createTestQueue<{ numbers: number[] }, number>('smoke', (job) =>
    Promise.resolve(job.data.numbers.reduce((sum, value) => sum + value, 0)),
  );
  afterAll(() => cleanup());

  it('processes a job and reports its return value', async () => {
    await events.waitUntilReady();
    const job = await queue.add('sum', { numbers: [1, 2, 39] });
    await expect(job.waitUntilFinished(events, 10_000)).resolves.toBe(42);
    expect(await queue.getJobCounts('completed')).toEqual({ completed: 1 });
  });
});
