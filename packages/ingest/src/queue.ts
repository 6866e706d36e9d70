import { Queue, type ConnectionOptions, type DefaultJobOptions } from 'bullmq';

export const INGEST_QUEUE_NAME = 'ingest';

/** One raw event as the producer read it; `rejection` is set when the producer already found it invalid. */
export type IngestItem = { raw: unknown; source: string; rejection?: string };

/**
 * A batch as a job carries it: its items as one JSON array text, serialized once by the producer (the
 * same text sizes the batch and goes to the spool) and parsed once by the worker, instead of BullMQ
 * serializing the items again into its job JSON (`npm run bench:ingest`, docs/benchmarks.md). A job
 * enqueued by an earlier version carries `items` as objects; both are read (`batchItems`).
 */
export type IngestJobData = (
  | {
      itemsJson: string;
      /** How many items the text holds: counted without parsing it. */
      itemCount: number;
    }
  | { items: IngestItem[] }
) & {
  /**
   * The producer's W3C trace context while tracing is on (docs/operations.md, "Traces"): the worker's span
   * continues its trace. Optional: jobs without it are processed the same.
   */
  traceparent?: string;
};
/**
 * What a completed job keeps as its data: none of its batch. Completed jobs stay an hour (their results
 * are what `ingest --wait` reads), and with their batches a backfill's would hold gigabytes of Redis.
 */
export const SPENT_BATCH: IngestJobData = { itemsJson: '[]', itemCount: 0 };

/** The items of a job's batch, whichever form it was enqueued in. */
export function batchItems(data: IngestJobData): IngestItem[] {
  return 'items' in data ? data.items : (JSON.parse(data.itemsJson) as IngestItem[]);
}

/** How many items a job's batch holds, without reading them. */
export function batchItemCount(data: IngestJobData): number {
  return 'items' in data ? data.items.length : data.itemCount;
}

export type IngestJobResult = {
  received: number;
  stored: number;
  duplicates: number;
  deadLettered: number;
  projected: number;
  /** Places whose index document was refused for its content (see `npm run dead-letters -- projections`). */
  projectionFailures: number;
  /** A place the batch stored an event of (the worker samples its freshness); absent if none. */
  samplePlaceId?: string;
};

export type QueueConnection = { connection: ConnectionOptions; prefix: string };

/** The backoff a batch retries with; the worker computes it (`cappedBackoffDelay`). */
export const INGEST_BACKOFF_TYPE = 'capped-exponential';

/**
 * Bad data never throws (it becomes a dead letter), so an error is the infrastructure's (PostgreSQL or
 * Elasticsearch unavailable, a bulk item throttled): the batch is retried without end, at a delay that
 * doubles up to a cap, so an outage of any length loses nothing. Appends are idempotent, so a retried
 * batch stores nothing twice. Failed jobs (a worker died on one too often) are kept until an operator
 * retries them (`npm run jobs`).
 */
// Completed jobs are kept (without their batches: SPENT_BATCH) for `ingest --wait` to read their results.
export const INGEST_JOB_OPTIONS: DefaultJobOptions = {
  attempts: Number.MAX_SAFE_INTEGER,
  backoff: { type: INGEST_BACKOFF_TYPE },
  removeOnComplete: { age: 3_600, count: 10_000 },
  removeOnFail: false,
};

/**
 * The delay before retry number `attempt` (1 = the first retry): doubling from `baseMs`, capped at
 * `maxMs`, with up to 20% jitter taken off so workers recovering together do not retry in lockstep.
 */
export function cappedBackoffDelay(
  attempt: number,
  options: { baseMs: number; maxMs: number },
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const delay = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  return Math.round(delay * (1 - 0.2 * random()));
}

export function createIngestQueue({
  connection,
  prefix,
}: QueueConnection): Queue<IngestJobData, IngestJobResult> {
  return new Queue<IngestJobData, IngestJobResult>(INGEST_QUEUE_NAME, {
    connection,
    prefix,
    defaultJobOptions: INGEST_JOB_OPTIONS,
  });
}
