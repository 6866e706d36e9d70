// `bench:scale`'s fixed batch through the real ingest pipeline, on a store of any size: new places and
// recrawls of stored ones, as the producer sends them.
import { sql } from 'kysely';
import { generateEvents } from '@directory/sample-data';
import { log, type BenchEnvironment } from './bench-environment.js';
import { startIngestPipeline } from './ingest-pipeline.js';
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
  const lines = [...generateEvents({ count: events - recrawled, seed: seed + 1 })].map((event) =>
    JSON.stringify(event),
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

/** The batch through the real pipeline (one worker process); events per second until searchable. */
export async function measureIngest(
  environment: BenchEnvironment,
  lines: ReadonlyArray<string>,
): Promise<number> {
  const pipeline = await startIngestPipeline(environment, 1);
  try {
    await environment.settle();
    const started = performance.now();
    await pipeline.ingest(lines, environment.config.INGEST_BATCH_SIZE);
    const seconds = (performance.now() - started) / 1000;
    log(
      `  ingest: ${lines.length} events in ${seconds.toFixed(1)} s = ${(lines.length / seconds).toFixed(0)} events/s`,
    );
    return lines.length / seconds;
  } finally {
    await pipeline.stop();
  }
}
