import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_EVENT_LINE_CHARACTERS } from '@directory/domain';
import { crawled, createTestRedis } from '@directory/testing';
import { produceFromNdjson, type Rejection } from '../src/producer.js';
import { createIngestQueue } from '../src/queue.js';

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
    const items = job?.data.items ?? [];
    expect(items[1]?.raw).toBe(runaway.slice(0, MAX_EVENT_LINE_CHARACTERS));
    expect(items[2]).toEqual({
      raw: 'not json \u0000',
      source: 'runaway.ndjson:3',
      rejection: 'not valid JSON',
    });
  });
});
