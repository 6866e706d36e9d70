// The real ingest pipeline as the benches run it: NDJSON → producer (this process) → BullMQ → worker
// processes (`npm run worker`: store, fold, project), on a bench environment's store, queue and alias.
import { Readable } from 'node:stream';
import { QueueEvents } from 'bullmq';
import { createIngestQueue, INGEST_QUEUE_NAME, produceFromNdjson, waitForJobs } from '@directory/ingest';
import { ensureDoctorsIndex } from '@directory/search-index';
import { startProcess, type RunningProcess } from '@directory/testing';
import type { BenchEnvironment } from './bench-environment.js';

export type IngestPipeline = {
  /** The worker processes' pids, for their CPU. */
  workerPids: number[];
  /** Produces the lines in batches and waits until every batch is done and searchable. */
  ingest: (lines: ReadonlyArray<string>, batchSize: number) => Promise<void>;
  stop: () => Promise<void>;
};

export async function startIngestPipeline(
  environment: BenchEnvironment,
  workerCount: number,
): Promise<IngestPipeline> {
  const queue = createIngestQueue(environment.queue);
  const queueEvents = new QueueEvents(INGEST_QUEUE_NAME, environment.queue);
  const workers: RunningProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(workers.map((worker) => worker.stop('SIGTERM')));
    await queueEvents.close();
    await queue.obliterate({ force: true });
    await queue.close();
  };
  try {
    await ensureDoctorsIndex(environment.client, environment.alias);
    await queueEvents.waitUntilReady();
    // Workers run as processes of their own (`npm run worker`), as in production.
    for (let n = 0; n < workerCount; n++)
      workers.push(
        startProcess('services/worker/src/main.ts', [], {
          DATABASE_URL: environment.databaseUrl,
          REDIS_PREFIX: environment.redisPrefix,
          ELASTICSEARCH_INDEX: environment.alias,
          LOG_LEVEL: 'info',
        }),
      );
    await Promise.all(workers.map((worker) => worker.waitForOutput(/worker started/)));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    workerPids: workers.flatMap((worker) => (worker.child.pid === undefined ? [] : [worker.child.pid])),
    ingest: async (lines, batchSize) => {
      const produced = await produceFromNdjson({
        queue,
        input: Readable.from(lines.map((line) => `${line}\n`)),
        sourceName: 'bench',
        batchSize,
      });
      const outcome = await waitForJobs(queue, queueEvents, produced.jobIds, { timeoutMs: 30 * 60_000 });
      if (outcome.failed.length > 0 || outcome.timedOut)
        throw new Error(`ingest failed: ${JSON.stringify(outcome.failed[0] ?? 'timed out')}`);
      // Done means searchable, as for `ingest --wait`: one refresh of the alias at the end.
      await environment.client.indices.refresh({ index: environment.alias });
    },
    stop,
  };
}
