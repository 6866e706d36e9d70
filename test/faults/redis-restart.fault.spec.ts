import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun } from '@directory/ingest';
import {
  assertNoServerErrors,
  startPrivateRedis,
  waitForConvergence,
  type PrivateRedis,
} from '@directory/testing';
import { expectedRunSummary } from '../expected-run.fixture.js';
import { sampleLines, startStorePipeline, type StorePipeline } from './store-pipeline.fixture.js';

const EVENTS = 20_000;
const BATCH = 1_000;

function okResponses(tally: { byStatus: Map<number, number> }): number {
  return tally.byStatus.get(200) ?? 0;
}

describe('fault: Redis is killed and restarted (empty) during ingest --wait', () => {
  let redis: PrivateRedis;
  let pipeline: StorePipeline;
  const lines = sampleLines(EVENTS, 41);

  beforeAll(async () => {
    redis = await startPrivateRedis();
    pipeline = await startStorePipeline('redis-restart', {
      REDIS_URL: redis.url,
      INGEST_BATCH_SIZE: String(BATCH),
    });
  });
  afterAll(async () => {
    await pipeline.cleanup();
    await redis.destroy();
  });

  it('re-enqueues the batches Redis lost, ends with an exact summary and converges', async () => {
    const load = await pipeline.startSearchLoad();
    const worker = await pipeline.startWorker();
    const ingest = await pipeline.ingest(lines, ['--wait', '--timeout', '240']);
    // Some batches done, most still queued or in flight: then Redis loses everything.
    await ingest.waitForOutput(/processed 2\/\d+ jobs/, 120_000);
    await redis.kill();
    // Down for longer than the producer's look-up interval, so the outage is noticed, not just the loss.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await redis.start();
    const answeredBeforeRestart = okResponses(load.tally);

    expect(await ingest.exited, ingest.output()).toBe(0);
    expect(ingest.output()).toMatch(/\d batches lost by Redis \(restarted\?\); enqueued again/);
    expect(ingest.output()).toMatch(/\d batches re-enqueued after Redis lost them/);
    expect(ingest.output()).toContain(describeRun(expectedRunSummary(lines)));
    expect(ingest.output()).not.toMatch(/FAILED|NOT STORED/);

    await waitForConvergence(pipeline.convergenceInput(lines), 60_000);
    // The worker reconnected by itself (it did the re-enqueued batches) and is still running; the API
    // answers searches again.
    expect(worker.child.exitCode).toBeNull();
    const tally = await load.stop();
    expect(okResponses(tally)).toBeGreaterThan(answeredBeforeRestart);
    assertNoServerErrors(tally);
  });
});
