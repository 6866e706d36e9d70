import { Queue, type ConnectionOptions, type DefaultJobOptions } from 'bullmq';

export const INGEST_QUEUE_NAME = 'ingest';

/** One raw event as the producer read it; `rejection` is set when the producer already found it invalid. */
export type IngestItem = { raw: unknown; source: string; rejection?: string };
export type IngestJobData = { items: IngestItem[] };
export type IngestJobResult = {
  received: number;
  stored: number;
  duplicates: number;
  deadLettered: number;
  projected: number;
};

export type QueueConnection = { connection: ConnectionOptions; prefix: string };

/**
 * Infrastructure errors (PostgreSQL or Elasticsearch unavailable, a bulk item refused) are retried with
 * exponential backoff; bad data never throws (it becomes a dead letter), so retries only ever repeat
 * work that can succeed. Appends are idempotent, so a retried batch stores nothing twice.
 */
export const INGEST_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 12,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: { age: 3_600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3_600 },
};

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
