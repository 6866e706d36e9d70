import { UnrecoverableError, Worker } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { createIngestQueue, INGEST_QUEUE_NAME, type IngestJobData } from '@directory/ingest';
import { createTestRedis, eventually, startProcess } from '@directory/testing';

describe('failed ingest jobs: listed and retried by an operator', () => {
  const redis = createTestRedis('failed-jobs');
  const connection = { url: redis.url };
  const queue = createIngestQueue({ connection, prefix: redis.prefix });
  const env = { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix };

  afterAll(async () => {
    await queue.close();
    await redis.cleanup();
  });

  it('lists failed jobs with their reason and moves them back to the queue with a fresh budget', async () => {
    const items = [{ raw: { eventId: 'e1' }, source: 'file:1' }];
    const jobs = await queue.addBulk([
      { name: 'batch', data: { items } },
      { name: 'batch', data: { items } },
    ]);
    // A stand-in for what fails a job in production (a worker dying on it too often): give up at once.
    const failing = new Worker<IngestJobData>(
      INGEST_QUEUE_NAME,
      () => Promise.reject(new UnrecoverableError('job stalled more than allowable limit')),
      { connection, prefix: redis.prefix },
    );
    await eventually(async () => (await queue.getFailedCount()) === 2, 10_000, 'both jobs to fail');
    await failing.close();
    // As if workers had died on them: the stall counter a retry must reset (BullMQ's retry does not).
    const client = await queue.client;
    for (const job of jobs) await client.hset(queue.toKey(job.id ?? ''), { stc: '11' });

    const list = startProcess('packages/operator/src/jobs.cli.ts', ['failed'], env);
    expect(await list.exited).toBe(0);
    for (const job of jobs)
      expect(list.output()).toMatch(
        new RegExp(`^${job.id}\\t\\S+\\t1 attempts\\t1 events\\tjob stalled more than allowable limit$`, 'm'),
      );
    expect(list.output()).toMatch(/2 failed jobs/);

    const retryOne = startProcess(
      'packages/operator/src/jobs.cli.ts',
      ['retry', jobs[0]?.id ?? '', 'nope'],
      env,
    );
    expect(await retryOne.exited).toBe(1);
    expect(retryOne.output()).toMatch(/job nope: not failed/);
    expect(retryOne.output()).toMatch(/retried 1 jobs/);

    const retryAll = startProcess('packages/operator/src/jobs.cli.ts', ['retry', '--all'], env);
    expect(await retryAll.exited).toBe(0);
    expect(retryAll.output()).toMatch(/retried 1 jobs/);
    for (const job of jobs) {
      expect(await queue.getJobState(job.id ?? '')).toBe('waiting');
      expect((await queue.getJob(job.id ?? ''))?.attemptsMade).toBe(0);
      expect(await client.hget(queue.toKey(job.id ?? ''), 'stc')).toBeNull();
    }
    expect(await queue.getFailedCount()).toBe(0);
  });
});
