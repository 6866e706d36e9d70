import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENT_LINE_CHARACTERS } from '@directory/domain';
import { listDeadLetters } from '@directory/event-store';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  crawled,
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  type TestDatabase,
} from '@directory/testing';
import { ingestBatch } from '../src/ingest.service.js';
import { EventIdLog } from '../src/event-id-log.js';
import { BATCHES_PER_ADD, produceFromNdjson, type Rejection } from '../src/producer.js';
import { batchItems, createIngestQueue } from '../src/queue.js';

describe('producer: bad lines travel on flagged, bounded', () => {
  const redis = createTestRedis('producer');
  const queue = createIngestQueue({ connection: { url: redis.url }, prefix: redis.prefix });

  afterAll(async () => {
    await queue.close();
    await redis.cleanup();
  });

  it('flags a runaway line and keeps only its first million characters for the dead letter', async () => {
    const runaway = `{"eventId": "${'x'.repeat(MAX_EVENT_LINE_CHARACTERS + 10)}"}`;
    const lines = [JSON.stringify(crawled('P1', 1, '2026-01-01T10:00:00Z')), runaway, 'not json \u0000'];
    const rejections: Rejection[] = [];
    const summary = await produceFromNdjson({
      queue,
      input: Readable.from(lines.map((line) => `${line}\n`)),
      sourceName: 'runaway.ndjson',
      batchSize: 10,
      onRejection: (rejection) => rejections.push(rejection),
    });
    expect(summary).toMatchObject({ lines: 3, enqueued: 3, rejected: 2 });
    expect(rejections.map((rejection) => rejection.line)).toEqual([2, 3]);
    expect(rejections[0]?.reason).toBe(
      `line of ${runaway.length} characters is over the limit of 1000000 (the first 1000000 are kept)`,
    );

    const [job] = await queue.getJobs(['waiting']);
    const items = job === undefined ? [] : batchItems(job.data);
    expect(items[1]?.raw).toBe(runaway.slice(0, MAX_EVENT_LINE_CHARACTERS));
    expect(items[2]).toEqual({
      raw: 'not json \u0000',
      source: 'runaway.ndjson:3',
      rejection: 'not valid JSON',
    });
  });
});

describe('producer: repeats counted from the event ids it logs', () => {
  const redis = createTestRedis('producer-repeats');
  const queue = createIngestQueue({ connection: { url: redis.url }, prefix: redis.prefix });

  afterAll(async () => {
    await queue.close();
    await redis.cleanup();
  });

  it('counts each repeat of a valid event id once, invalid lines never, and leaves the given log to its caller', async () => {
    const [p1, p2, p3] = [1, 2, 3].map((n) => crawled(`P${n}`, n, '2026-01-01T10:00:00Z'));
    const lines = [p1, p2, p1, p3, p2, p1].map((event) => JSON.stringify(event));
    lines.push('not json', '');
    const eventIds = await EventIdLog.open(4);
    try {
      const summary = await produceFromNdjson({
        queue,
        input: Readable.from(lines.map((line) => `${line}\n`)),
        sourceName: 'repeats.ndjson',
        batchSize: 2,
        eventIds,
      });
      expect(summary).toMatchObject({ lines: 8, blank: 1, enqueued: 7, rejected: 1, duplicatesInInput: 3 });
      expect(summary.jobIds).toHaveLength(4);
      // The log is still open, with the distinct ids the store is asked about after a --wait.
      const logged: string[] = [];
      for await (const ids of eventIds.distinctByPartition()) logged.push(...ids);
      expect(logged.sort()).toEqual([p1, p2, p3].map((event) => event?.eventId).sort());
    } finally {
      await eventIds.close();
    }
  });
});

describe('producer: batches bounded by bytes as well as by count', () => {
  const redis = createTestRedis('producer-bytes');
  const queue = createIngestQueue({ connection: { url: redis.url }, prefix: redis.prefix });
  const search = createTestSearch('producer-bytes');
  const alias = `${search.prefix}_doctors`;
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('producer-bytes');
    await ensureDoctorsIndex(search.client, alias);
  });
  afterAll(async () => {
    await queue.close();
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
  });

  it('splits very large valid events over several jobs within the bound, loses none, and dead-letters one too big for any job', async () => {
    const MAX_BATCH_BYTES = 1024 * 1024;
    // Valid events of about 300 KB each (a crawler's extra field; the allowlist drops it), a small one,
    // and one of 1.2 MB, more than a whole job may hold.
    const large = Array.from({ length: 7 }, (_, n) =>
      crawled(`L${n}`, 1, '2026-01-01T10:00:00Z', { rawHtml: `<p>${'é'.repeat(150_000)}</p>` }),
    );
    const small = crawled('S1', 1, '2026-01-01T10:00:00Z');
    const tooBig = crawled('T1', 1, '2026-01-01T10:00:00Z', { rawHtml: 'é'.repeat(600_000) });
    const lines = [...large.slice(0, 3), small, tooBig, ...large.slice(3)].map((event) =>
      JSON.stringify(event),
    );
    const rejections: Rejection[] = [];
    const summary = await produceFromNdjson({
      queue,
      input: Readable.from(lines.map((line) => `${line}\n`)),
      sourceName: 'large.ndjson',
      batchSize: 1_000,
      maxBatchBytes: MAX_BATCH_BYTES,
      onRejection: (rejection) => rejections.push(rejection),
    });
    expect(summary).toMatchObject({ lines: 9, enqueued: 9, rejected: 1 });
    expect(rejections).toEqual([
      {
        line: 5,
        reason: expect.stringMatching(
          /^event of \d+ bytes as queued is over INGEST_BATCH_MAX_BYTES \(1048576 bytes for a whole batch\): the first \d+ characters are kept$/,
        ) as string,
      },
    ]);

    const jobs = await queue.getJobs(['waiting']);
    expect(jobs.length).toBeGreaterThanOrEqual(4);
    for (const job of jobs)
      expect(Buffer.byteLength(JSON.stringify(job.data))).toBeLessThanOrEqual(MAX_BATCH_BYTES);

    const deps = {
      db: database.db,
      search: { client: search.client, alias },
      siteOrigin: 'https://www.doctor-directory.example',
    };
    for (const job of jobs) await ingestBatch(deps, batchItems(job.data));
    const stored = await database.db.selectFrom('events').select('event_id').orderBy('event_id').execute();
    expect(stored.map((row) => row.event_id)).toEqual([...large, small].map((event) => event.eventId).sort());
    const [letter] = await listDeadLetters(database.db);
    expect(letter?.source).toBe('large.ndjson:5');
    expect(lines[4]?.startsWith(letter?.raw as string)).toBe(true);
  });
});

describe('producer: held back while the queue is full', () => {
  const redis = createTestRedis('producer-brake');
  const queue = createIngestQueue({ connection: { url: redis.url }, prefix: redis.prefix });

  afterAll(async () => {
    await queue.close();
    await redis.cleanup();
  });

  it('adds no batch while the queue holds the limit, and goes on as the queue drains', async () => {
    const limit = 3;
    const lines = Array.from({ length: 40 }, (_, index) =>
      JSON.stringify(crawled(`Q${index}`, 1, '2026-01-01T10:00:00Z')),
    );
    const fullAt: number[] = [];
    let finished = false;
    const producing = produceFromNdjson({
      queue,
      input: Readable.from(lines.map((line) => `${line}\n`)),
      sourceName: 'backfill.ndjson',
      batchSize: 2,
      maxQueuedBatches: limit,
      onQueueFull: (queued) => fullAt.push(queued),
    }).finally(() => (finished = true));
    // No worker: the queue fills to the limit (and the group added with the last look) and stays there.
    let highest = 0;
    for (let look = 0; look < 10; look += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      highest = Math.max(highest, await queue.count());
    }
    expect(finished).toBe(false);
    expect(highest).toBeGreaterThanOrEqual(limit);
    expect(highest).toBeLessThanOrEqual(limit - 1 + BATCHES_PER_ADD);
    expect(fullAt.length).toBeGreaterThan(0);
    // A worker's part, taken by hand: the waiting batches leave the queue, and the producer goes on.
    let taken = 0;
    while (!finished) {
      const waiting = await queue.getJobs(['waiting']);
      for (const job of waiting) await job.remove();
      taken += waiting.length;
      highest = Math.max(highest, await queue.count());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const summary = await producing;
    taken += (await queue.getJobs(['waiting'])).length;
    expect(summary.enqueued).toBe(lines.length);
    expect(taken).toBe(lines.length / 2);
    expect(highest).toBeLessThanOrEqual(limit - 1 + BATCHES_PER_ADD);
  });
});
