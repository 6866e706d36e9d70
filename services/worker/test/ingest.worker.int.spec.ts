import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchItemCount, createIngestQueue, type ProjectorDependencies } from '@directory/ingest';
import { createSearchClient, ensureDoctorsIndex } from '@directory/search-index';
import {
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  eventually,
  freePort,
  SITE_ORIGIN,
  type TestDatabase,
} from '@directory/testing';
import { startIngestWorker } from '../src/ingest.worker.js';

const OLD_ATTEMPT_BUDGET = 12;

describe('ingest worker: an infrastructure outage of any length loses nothing', () => {
  let database: TestDatabase;
  const redis = createTestRedis('ingest-worker');
  const search = createTestSearch('ingest-worker');
  const alias = `${search.prefix}_doctors`;
  const queue = createIngestQueue({ connection: { url: redis.url }, prefix: redis.prefix });

  beforeAll(async () => {
    database = await createTestDatabase('ingest-worker');
    await ensureDoctorsIndex(search.client, alias);
  });
  afterAll(async () => {
    await queue.close();
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
  });

  it('retries a batch past the old 12-attempt budget at a capped delay, then completes it', async () => {
    const down = createSearchClient(`http://127.0.0.1:${await freePort()}`, {
      timeoutMs: 500,
      maxRetries: 0,
    });
    // The worker's dependencies, with Elasticsearch unreachable until the test brings it "back".
    const deps: ProjectorDependencies = {
      db: database.db,
      search: { client: down, alias },
      siteOrigin: SITE_ORIGIN,
    };
    const running = startIngestWorker(deps, {
      queue: { connection: { url: redis.url }, prefix: redis.prefix },
      concurrency: 1,
      lockDurationMs: 5_000,
      sweepIntervalMs: 60_000,
      sweepGraceMs: 0,
      sweepClaimMs: 5_000,
      retry: { baseMs: 20, maxMs: 80 },
      maxStalledCount: 10,
      logger: pino({ level: 'silent' }),
    });
    try {
      const job = await queue.add('batch', {
        items: [
          {
            raw: {
              eventId: 'w1-closed',
              placeId: 'W1',
              type: 'place.closed',
              occurredAt: '2026-01-01T10:00:00Z',
              schemaVersion: 1,
              payload: {},
            },
            source: 'outage:1',
          },
          { raw: { eventId: 'broken' }, source: 'outage:2' },
        ],
      });
      const started = Date.now();
      const jobId = job.id ?? '';
      await eventually(
        async () => ((await queue.getJob(jobId))?.attemptsMade ?? 0) > OLD_ATTEMPT_BUDGET,
        30_000,
        'more failed attempts than the old budget allowed',
      );
      const during = await queue.getJob(jobId);
      expect(await during?.getState()).toMatch(/delayed|waiting|active/);
      // Thirteen retries doubling from 20 ms would take over 80 s; capped at 80 ms they take about one.
      expect(Date.now() - started).toBeLessThan(20_000);
      // Stored already, before any projection: the event and the dead letter.
      expect(await database.db.selectFrom('events').select('event_id').execute()).toEqual([
        { event_id: 'w1-closed' },
      ]);
      expect(await database.db.selectFrom('dead_letters').select('source').execute()).toEqual([
        { source: 'outage:2' },
      ]);

      deps.search.client = search.client;
      await eventually(
        async () => (await queue.getJobState(jobId)) === 'completed',
        30_000,
        'the job to complete',
      );
      await search.client.indices.refresh({ index: alias });
      const document = await search.client.get({ index: alias, id: 'W1' });
      expect(document._source).toEqual({ served: false, placeId: 'W1' });
      expect(await queue.getFailedCount()).toBe(0);
      // The completed job keeps its result, not its batch.
      await eventually(
        async () => batchItemCount((await queue.getJob(jobId))?.data ?? { items: [] }) === 0,
        10_000,
        "the completed job's batch to be dropped",
      );
      // The completing attempt found the event stored by an earlier one.
      expect((await queue.getJob(jobId))?.returnvalue).toMatchObject({
        received: 2,
        stored: 0,
        duplicates: 1,
        deadLettered: 1,
      });
    } finally {
      await running.close();
      await down.close();
    }
  });
});
