import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batchItems,
  createIngestQueue,
  describeRun,
  ingestBatch,
  type IngestJobData,
  type IngestJobResult,
} from '@directory/ingest';
import { assertConverged, eventually, projectRawEvents, SITE_ORIGIN } from '@directory/testing';
import type { Queue } from 'bullmq';
import { expectedRunSummary } from './expected-run.fixture.js';
import { sampleLines, startStorePipeline, type StorePipeline } from './faults/store-pipeline.fixture.js';

function summaryLine(output: string): string {
  return /done in .*/.exec(output)?.[0] ?? `no summary in:\n${output}`;
}

describe('ingest --wait: searchable when it returns, and a summary that adds up', () => {
  let pipeline: StorePipeline;
  let queue: Queue<IngestJobData, IngestJobResult>;

  beforeAll(async () => {
    pipeline = await startStorePipeline('ingest-wait', { INGEST_BATCH_SIZE: '500' });
    queue = createIngestQueue({
      connection: { url: pipeline.env.REDIS_URL ?? '' },
      prefix: pipeline.redis.prefix,
    });
  });
  afterAll(async () => {
    await queue.close();
    await pipeline.cleanup();
  });

  it('finds every new record in a search at once, and a second run of the file counts it as already stored', async () => {
    const lines = sampleLines(2_000, 31);
    const expected = projectRawEvents(lines, SITE_ORIGIN);
    const served = [...expected.rows.values()].filter((row) => row.document.served).length;
    const worker = await pipeline.startWorker();

    const first = await pipeline.ingest([...lines, ''], ['--wait']);
    expect(await first.exited, first.output()).toBe(0);
    // No sleep and no refresh here: returning means searchable.
    const found = await pipeline.search.client.count({
      index: pipeline.alias,
      query: { term: { served: true } },
    });
    expect(found.count).toBe(served);
    expect(summaryLine(first.output())).toContain(describeRun(expectedRunSummary([...lines, ''])));

    const second = await pipeline.ingest(lines, ['--wait']);
    expect(await second.exited, second.output()).toBe(0);
    expect(summaryLine(second.output())).toContain(
      describeRun(expectedRunSummary(lines, expected.uniqueEvents)),
    );
    await assertConverged(pipeline.convergenceInput([...lines, ...lines]));
    expect(await worker.stop('SIGTERM')).toBe(0);
  });

  it('counts a retried batch’s events as stored by this run, not as duplicates', async () => {
    const lines = sampleLines(1_500, 37);
    // No worker yet: the jobs wait in the queue.
    const ingest = await pipeline.ingest(lines, ['--wait']);
    let firstJob: { id?: string; data: IngestJobData } | undefined;
    await eventually(
      async () => {
        const jobs = await queue.getJobs(['waiting']);
        firstJob = jobs.find((job) => batchItems(job.data)[0]?.source.endsWith(':1'));
        return jobs.length === Math.ceil(lines.length / 500) && firstJob !== undefined;
      },
      30_000,
      'every batch to be enqueued',
    );
    // A first attempt of the first batch that stored its events, then lost its worker before the job
    // completed: the retry finds its own events in the store.
    await ingestBatch(
      {
        db: pipeline.database.db,
        search: { client: pipeline.search.client, alias: pipeline.alias },
        siteOrigin: SITE_ORIGIN,
      },
      firstJob === undefined ? [] : batchItems(firstJob.data),
    );
    await pipeline.startWorker();
    expect(await ingest.exited, ingest.output()).toBe(0);
    // The job result alone would call the batch's events duplicates.
    const retried = await queue.getJob(firstJob?.id ?? '');
    expect(retried?.returnvalue.stored).toBe(0);
    expect(retried?.returnvalue.duplicates).toBeGreaterThan(400);
    expect(summaryLine(ingest.output())).toContain(describeRun(expectedRunSummary(lines)));
  });
});
