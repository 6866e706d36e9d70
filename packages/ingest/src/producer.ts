import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Queue } from 'bullmq';
import { DEFAULT_INGEST_BATCH_MAX_BYTES } from '@directory/config';
import { MAX_EVENT_LINE_CHARACTERS, parsePlaceEvent } from '@directory/domain';
import { EventIdLog } from './event-id-log.js';
import { BatchBuilder, batchOf, oversizedItem, serializeItem, type BatchBounds } from './batching.js';
import { traceEnqueue, traceIngestRun } from './job-trace.js';
import { batchItemCount, type IngestItem, type IngestJobData, type IngestJobResult } from './queue.js';

export type Rejection = { line: number; reason: string };

export type ProduceSummary = {
  lines: number;
  /** Empty or whitespace-only lines: skipped, sent nowhere. */
  blank: number;
  enqueued: number;
  /** Invalid lines: reported here and still enqueued, so the worker records them as dead letters. */
  rejected: number;
  /**
   * Event ids repeated within this input (the store also drops repeats of earlier inputs). Counted once
   * the whole input is read: 0 in `onProgress`.
   */
  duplicatesInInput: number;
  /** One id a job (a thousand events), for `--wait`: a list a thousand times shorter than the input. */
  jobIds: string[];
};

/** A batch as enqueued: its job id (chosen here, so adding it again is a no-op while Redis holds it). */
export type EnqueuedBatch = { jobId: string; data: IngestJobData };

export type ProduceOptions = {
  queue: Queue<IngestJobData, IngestJobResult>;
  input: Readable;
  sourceName: string;
  /** Events per job at most (INGEST_BATCH_SIZE). */
  batchSize: number;
  /** Bytes of a job's data (its JSON) at most (INGEST_BATCH_MAX_BYTES; 8 MiB unless given). */
  maxBatchBytes?: number;
  onRejection?: (rejection: Rejection) => void;
  onProgress?: (summary: ProduceSummary) => void;
  /**
   * Where the event ids of the valid lines go (`--wait` looks them up in the store at the end); the
   * caller closes it. Without it, a log of the producer's own counts the repeats and is deleted.
   */
  eventIds?: EventIdLog;
  /** Called with every batch once Redis accepted it (`--wait` keeps them to re-enqueue lost ones). */
  onEnqueued?: (batches: ReadonlyArray<EnqueuedBatch>) => void | Promise<void>;
  /**
   * While the queue holds this many batches not yet taken by a worker (waiting, delayed or prioritized),
   * no more are added: Redis holds a backfill a few batches deep instead of whole. Unbounded if unset.
   */
  maxQueuedBatches?: number;
  /** Called when the producer starts waiting for the queue to fall below `maxQueuedBatches`. */
  onQueueFull?: (queued: number) => void;
  /** Called when adding to Redis failed and is about to be tried again. */
  onEnqueueRetry?: (error: Error) => void;
  /** How long adding one group of batches keeps being retried before the run gives up. */
  enqueueRetryMs?: number;
};

// Jobs are added in small groups with addBulk: fewer Redis round trips, while the first jobs still reach
// the workers early (a group of 20 kept them idle until 20,000 events were validated).
export const BATCHES_PER_ADD = 2;

/**
 * Streams NDJSON into the ingest queue in batches, each closed at `batchSize` events or `maxBatchBytes`
 * of job data, whichever comes first (an event too big for any batch is rejected, keeping the start of
 * its line, as an over-long line is). Every line is validated here so the data team sees
 * bad lines (number + reason) at once; bad lines travel on flagged, so they land in dead letters with
 * their raw text instead of being dropped. Memory stays flat whatever the input's length: one group of
 * batches at a time, counts rather than lists, the event ids (to count repeats) on disk; only one job id
 * per batch is kept.
 */
export function produceFromNdjson(options: ProduceOptions): Promise<ProduceSummary> {
  return traceIngestRun(options.sourceName, async () => {
    if (options.eventIds) return produce(options, options.eventIds);
    const eventIds = await EventIdLog.open();
    try {
      return await produce(options, eventIds);
    } finally {
      await eventIds.close();
    }
  });
}

async function produce(options: ProduceOptions, eventIds: EventIdLog): Promise<ProduceSummary> {
  const summary: ProduceSummary = {
    lines: 0,
    blank: 0,
    enqueued: 0,
    rejected: 0,
    duplicatesInInput: 0,
    jobIds: [],
  };
  let valid = 0;
  const bounds: BatchBounds = {
    maxItems: options.batchSize,
    maxBytes: options.maxBatchBytes ?? DEFAULT_INGEST_BATCH_MAX_BYTES,
  };
  const builder = new BatchBuilder(bounds);
  let pending: IngestJobData[] = [];

  const flushPending = async () => {
    if (pending.length === 0) return;
    if (options.maxQueuedBatches !== undefined) await waitForQueueRoom(options, options.maxQueuedBatches);
    const batches = pending.map((data) => ({ jobId: randomUUID(), data }));
    await addBatches(options, batches);
    for (const { jobId } of batches) summary.jobIds.push(jobId);
    summary.enqueued += pending.reduce((sum, data) => sum + batchItemCount(data), 0);
    pending = [];
    await options.onEnqueued?.(batches);
    options.onProgress?.(summary);
  };

  const lines = createInterface({ input: options.input, crlfDelay: Infinity });
  for await (const text of lines) {
    summary.lines += 1;
    if (text.trim() === '') {
      summary.blank += 1;
      continue;
    }
    const source = `${options.sourceName}:${summary.lines}`;
    let item = toItem(text, source);
    // Serialized once: the text sizes the batch and travels in the job as it is.
    let serialized = serializeItem(item);
    // Too big for any job: a rejection keeping the start of the line, so the worker dead-letters it.
    if (serialized.bytes > builder.maxItemBytes) {
      item = oversizedItem(item, text, serialized.bytes, bounds);
      serialized = serializeItem(item);
    }
    if (item.rejection !== undefined) {
      summary.rejected += 1;
      options.onRejection?.({ line: summary.lines, reason: item.rejection });
    } else {
      valid += 1;
      await eventIds.add((item.raw as { eventId: string }).eventId);
    }
    for (const batch of builder.add(serialized)) pending.push(batchOf(batch));
    if (pending.length >= BATCHES_PER_ADD) await flushPending();
  }
  const last = builder.finish();
  if (last !== null) pending.push(batchOf(last));
  await flushPending();
  summary.duplicatesInInput = valid - (await eventIds.countDistinct());
  return summary;
}

// How often a producer held back by a full queue looks again: a batch takes a worker tens of milliseconds.
const QUEUE_ROOM_POLL_MS = 100;

/**
 * Waits until the queue holds fewer than `limit` batches not yet taken by a worker. Each count is tried
 * again while Redis is away, as adding is.
 */
async function waitForQueueRoom(
  options: Pick<ProduceOptions, 'queue' | 'onQueueFull' | 'onEnqueueRetry' | 'enqueueRetryMs'>,
  limit: number,
): Promise<void> {
  // count(): waiting, delayed and prioritized jobs; the ones being processed are in the workers' hands.
  const count = () => retryingWhileRedisIsAway(options, () => options.queue.count());
  let queued = await count();
  if (queued < limit) return;
  options.onQueueFull?.(queued);
  while (queued >= limit) {
    await new Promise((resolve) => setTimeout(resolve, QUEUE_ROOM_POLL_MS));
    queued = await count();
  }
}

/**
 * Runs `attempt`, and again a second later while it fails (Redis restarting, unreachable, or a cluster
 * failing over), until `enqueueRetryMs` has passed.
 */
async function retryingWhileRedisIsAway<Value>(
  options: Pick<ProduceOptions, 'onEnqueueRetry' | 'enqueueRetryMs'>,
  attempt: () => Promise<Value>,
): Promise<Value> {
  const deadline = Date.now() + (options.enqueueRetryMs ?? 60_000);
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      options.onEnqueueRetry?.(error instanceof Error ? error : new Error(String(error)));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/**
 * Adds batches under the ids chosen for them. Redis restarting or unreachable for a moment fails the
 * call; it is tried again (the same ids: whatever the failed call did add is not added twice) until
 * `enqueueRetryMs` has passed.
 */
export async function addBatches(
  options: Pick<ProduceOptions, 'queue' | 'onEnqueueRetry' | 'enqueueRetryMs'>,
  batches: ReadonlyArray<EnqueuedBatch>,
): Promise<void> {
  await traceEnqueue(batches.length, (withTraceContext) =>
    retryingWhileRedisIsAway(options, () =>
      options.queue.addBulk(
        batches.map(({ jobId, data }) => ({
          name: 'batch',
          data: withTraceContext(data),
          opts: { jobId },
        })),
      ),
    ),
  );
}

function toItem(text: string, source: string): IngestItem {
  if (text.length > MAX_EVENT_LINE_CHARACTERS)
    return {
      raw: text.slice(0, MAX_EVENT_LINE_CHARACTERS),
      source,
      rejection: `line of ${text.length} characters is over the limit of ${MAX_EVENT_LINE_CHARACTERS} (the first ${MAX_EVENT_LINE_CHARACTERS} are kept)`,
    };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { raw: text, source, rejection: 'not valid JSON' };
  }
  const parsed = parsePlaceEvent(raw);
  return parsed.ok ? { raw: parsed.value, source } : { raw, source, rejection: parsed.error };
}
