import { Readable } from 'node:stream';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestQueue, produceFromNdjson } from '@directory/ingest';
import { startTracing, stopTracing } from '@directory/observability';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  crawled,
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  eventually,
  SITE_ORIGIN,
  type TestDatabase,
} from '@directory/testing';
import { startIngestWorker, type RunningWorker } from '../src/ingest.worker.js';

describe('an ingest is one trace, from the producer to the index write (docs/operations.md, "Traces")', () => {
  const exporter = new InMemorySpanExporter();
  const redis = createTestRedis('ingest-tracing');
  const search = createTestSearch('ingest-tracing');
  const alias = `${search.prefix}_doctors`;
  const queue = createIngestQueue({ connection: { url: redis.url }, prefix: redis.prefix });
  let database: TestDatabase;
  let running: RunningWorker;

  beforeAll(async () => {
    // Before the database is opened, as the worker and the ingest command do.
    await startTracing('worker', { spanProcessor: new SimpleSpanProcessor(exporter) });
    database = await createTestDatabase('ingest-tracing');
    await ensureDoctorsIndex(search.client, alias);
    running = startIngestWorker(
      { db: database.db, search: { client: search.client, alias }, siteOrigin: SITE_ORIGIN },
      {
        queue: { connection: { url: redis.url }, prefix: redis.prefix },
        concurrency: 1,
        lockDurationMs: 5_000,
        sweepIntervalMs: 60_000,
        sweepGraceMs: 60_000,
        sweepClaimMs: 5_000,
        retry: { baseMs: 20, maxMs: 80 },
        maxStalledCount: 10,
        logger: pino({ level: 'silent' }),
      },
    );
  });
  afterAll(async () => {
    await running?.close();
    await queue.close();
    await stopTracing();
    await redis.cleanup();
    await search.cleanup();
    await database?.drop();
  });

  const completed = (jobId: string) =>
    eventually(
      async () => (await queue.getJob(jobId))?.finishedOn !== undefined,
      20_000,
      `job ${jobId} done`,
    );

  /** The spans of a trace below `root`, by their parents (the in-memory exporter keeps them unordered). */
  function descendantsOf(spans: ReadableSpan[], root: ReadableSpan): ReadableSpan[] {
    const found: ReadableSpan[] = [];
    let parents = [root.spanContext().spanId];
    while (parents.length > 0) {
      const children = spans.filter((span) => parents.includes(span.parentSpanContext?.spanId ?? ''));
      found.push(...children);
      parents = children.map((span) => span.spanContext().spanId);
    }
    return found;
  }

  it('links the ingest run, the enqueue, the job and its fold and index write in one trace', async () => {
    exporter.reset();
    const summary = await produceFromNdjson({
      queue,
      input: Readable.from([`${JSON.stringify(crawled('TR1', 1, '2026-01-01T10:00:00Z'))}\n`]),
      sourceName: 'traced.ndjson',
      batchSize: 10,
    });
    const [jobId] = summary.jobIds;
    expect((await queue.getJob(jobId ?? ''))?.data.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await completed(jobId ?? '');

    const spans = exporter.getFinishedSpans();
    const run = spans.find((span) => span.name === 'ingest traced.ndjson');
    expect(run?.parentSpanContext).toBeUndefined();
    const traceId = run?.spanContext().traceId;
    const send = spans.find((span) => span.kind === SpanKind.PRODUCER);
    const consumer = spans.find((span) => span.kind === SpanKind.CONSUMER);
    expect(send?.parentSpanContext?.spanId).toBe(run?.spanContext().spanId);
    expect(consumer?.parentSpanContext?.spanId).toBe(send?.spanContext().spanId);
    expect(consumer?.attributes).toMatchObject({
      'messaging.destination.name': 'ingest',
      'messaging.message.id': jobId,
      'directory.ingest.events': 1,
    });

    const underJob = descendantsOf(spans, consumer!);
    expect(underJob.every((span) => span.spanContext().traceId === traceId)).toBe(true);
    // The fold's queries in PostgreSQL, then the index write.
    expect(underJob.filter((span) => span.attributes['db.system'] === 'postgresql').length).toBeGreaterThan(
      0,
    );
    const indexWrite = underJob.find((span) => span.name === 'index write');
    expect(indexWrite?.attributes).toMatchObject({
      'db.system': 'elasticsearch',
      'db.collection.name': alias,
      'directory.ingest.documents': 1,
    });
  });

  it('processes a job that carries no trace context (enqueued with tracing off) in a trace of its own', async () => {
    exporter.reset();
    const job = await queue.add('batch', {
      items: [{ raw: crawled('TR2', 1, '2026-01-01T10:00:00Z'), source: 'untraced:1' }],
    });
    await completed(job.id ?? '');
    expect(await job.getState()).toBe('completed');
    const consumer = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.CONSUMER);
    expect(consumer?.parentSpanContext).toBeUndefined();
    expect(consumer?.status.code).toBe(SpanStatusCode.UNSET);
  });
});
