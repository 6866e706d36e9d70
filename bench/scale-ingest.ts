// `bench:scale`'s fixed batch through the real ingest pipeline, on a store of any size: new places and
// recrawls of stored ones, as the producer sends them.
import { sql } from 'kysely';
import { generateEvents } from '@directory/sample-data';
import { log, type BenchEnvironment } from './bench-environment.js';
import { startIngestPipeline } from './ingest-pipeline.js';
import { walCounters } from './postgres-counters.js';
import type { SampledRecord } from './scale-workloads.js';

/**
 * The fixed batch: half new places (the generator under another seed), half recrawls of stored places
 * (each one's latest crawl again, a review more and a new content hash), as NDJSON lines.
 */
export async function ingestBatch(
  environment: BenchEnvironment,
  sample: ReadonlyArray<SampledRecord>,
  events: number,
  seed: number,
): Promise<string[]> {
  const recrawled = Math.min(Math.floor(events / 2), sample.length);
  const lines = [...generateEvents({ count: events - recrawled, seed: seed + 1, estimateServed: false })].map(
    (event) => JSON.stringify(event),
  );
  const latest = await sql<{ placeId: string; payload: string }>`
    select distinct on (place_id) place_id as "placeId", payload::text as payload from events
    where place_id = any(${sample.slice(0, recrawled).map((record) => record.id)}) and type = 'place.crawled'
    order by place_id, position desc`.execute(environment.db);
  const crawledFrom = Date.now() - latest.rows.length;
  for (const [index, { placeId, payload }] of latest.rows.entries()) {
    const crawl = JSON.parse(payload) as {
      observed: { reviewCount: number | null };
      crawl: { contentHash: string };
    };
    crawl.observed.reviewCount = (crawl.observed.reviewCount ?? 0) + 1;
    crawl.crawl.contentHash = `sha256:${index.toString(16).padStart(64, '0')}`;
    lines.push(
      JSON.stringify({
        eventId: `ev_${placeId}_scale_${seed}_${index}`,
        placeId,
        type: 'place.crawled',
        // Today's crawl: after everything the generator dated, and not in the future.
        occurredAt: new Date(crawledFrom + index).toISOString(),
        schemaVersion: 1,
        payload: crawl,
      }),
    );
  }
  return lines;
}

/** What the ingest measure ran: one batch, or batches until a duration passed. */
export type IngestFigures = {
  events: number;
  /** Overall events/s: every event of the run ÷ the time the pipeline worked on them. */
  eventsPerSecond: number;
  /** The first batch's events/s (it starts right after a checkpoint: the costliest). */
  firstBatchEventsPerSecond: number;
};

/**
 * Batches through the real pipeline (one worker process) until `minimumSeconds` have passed, at least
 * one: events per second until searchable, and the write-ahead log it cost per event, read once the
 * worker has stopped (its connections report their full-page images as they close). The run starts
 * right after a checkpoint (the settle), so each index page it is first to touch is logged whole: on a
 * large store, with keys spread over big indexes, one batch pays that for most of its pages, while a run
 * as long as `checkpoint_timeout` pays it once per page, as a long ingest does. Only the pipeline's time
 * counts, not the time taken to generate the next batch.
 */
export async function measureIngest(
  environment: BenchEnvironment,
  nextBatch: (round: number) => Promise<string[]>,
  minimumSeconds: number,
): Promise<IngestFigures> {
  const pipeline = await startIngestPipeline(environment, 1);
  let seconds = 0;
  let events = 0;
  let firstBatchEventsPerSecond = 0;
  let walBefore: { bytes: number; fpi: number };
  try {
    await environment.settle();
    walBefore = await walCounters(environment.db);
    for (let round = 0; round === 0 || seconds < minimumSeconds; round++) {
      const lines = await nextBatch(round);
      const started = performance.now();
      await pipeline.ingest(lines, environment.config.INGEST_BATCH_SIZE);
      const batchSeconds = (performance.now() - started) / 1000;
      if (round === 0) firstBatchEventsPerSecond = lines.length / batchSeconds;
      seconds += batchSeconds;
      events += lines.length;
      if (minimumSeconds > 0)
        log(
          `    batch ${round + 1}: ${lines.length} events at ${(lines.length / batchSeconds).toFixed(0)} events/s ` +
            `(${seconds.toFixed(0)} s, ${events} events so far)`,
        );
    }
  } finally {
    await pipeline.stop();
  }
  const walAfter = await walCounters(environment.db);
  const perEvent = (value: number) => value / Math.max(events, 1);
  log(
    `  ingest: ${events} events in ${seconds.toFixed(1)} s = ${(events / seconds).toFixed(0)} events/s ` +
      `(first batch ${firstBatchEventsPerSecond.toFixed(0)}); WAL ${(perEvent(walAfter.bytes - walBefore.bytes) / 1024).toFixed(1)} KB and ` +
      `${perEvent(walAfter.fpi - walBefore.fpi).toFixed(2)} full-page images per event (whole server)`,
  );
  return { events, eventsPerSecond: events / seconds, firstBatchEventsPerSecond };
}
