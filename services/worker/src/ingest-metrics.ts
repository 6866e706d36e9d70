import type { Worker } from 'bullmq';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { IngestJobData, IngestJobResult } from '@directory/ingest';

/** The worker's own series: what it ingests, how fast, what fails, and how far the index trails. */
export type IngestMetrics = ReturnType<typeof createIngestMetrics>;

export function createIngestMetrics(registry: Registry) {
  const registers = [registry];
  return {
    events: new Counter({
      name: 'directory_ingest_events_total',
      help: 'Events through the pipeline by outcome: stored, already_stored (sent before), dead_lettered',
      labelNames: ['outcome'],
      registers,
    }),
    batchDuration: new Histogram({
      name: 'directory_ingest_batch_duration_seconds',
      help: 'Time to ingest one batch (validate, append, fold, project), successful attempts',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    failedAttempts: new Counter({
      name: 'directory_ingest_batch_failures_total',
      help: 'Batch attempts that threw (infrastructure errors; BullMQ retries them)',
      registers,
    }),
    bulkItemFailures: new Counter({
      name: 'directory_elasticsearch_bulk_item_failures_total',
      help: 'Bulk items Elasticsearch refused (other than stale-version 409s), by error type',
      labelNames: ['reason'],
      registers,
    }),
    jobs: new Gauge({
      name: 'directory_queue_jobs',
      help: 'Jobs in the queue by state (sampled)',
      labelNames: ['queue', 'state'],
      registers,
    }),
    lagPlaces: new Gauge({
      name: 'directory_projection_lag_places',
      help: 'Places whose indexed version is behind their stored stream (places set aside excluded)',
      registers,
    }),
    setAsidePlaces: new Gauge({
      name: 'directory_projection_set_aside_places',
      help: 'Places the index refused at their current version (projection failures waiting for an operator)',
      registers,
    }),
    lagAge: new Gauge({
      name: 'directory_projection_lag_oldest_change_age_seconds',
      help: 'Age of the oldest stored change not yet in the index (0 when nothing lags)',
      registers,
    }),
    staleness: new Gauge({
      name: 'directory_projection_staleness_seconds',
      help: 'Seconds since the projector last made progress while work was waiting (0 when idle)',
      registers,
    }),
    freshness: new Histogram({
      name: 'directory_freshness_seconds',
      help: 'Seconds from an event being stored to its document being returned by a search on the read alias (sampled, one place per batch)',
      buckets: [0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 30, 60],
      registers,
    }),
    servedPlaces: new Gauge({
      name: 'directory_reconciliation_served',
      help: 'Served places in PostgreSQL and served documents behind the read alias (checked on an interval)',
      labelNames: ['store'],
      registers,
    }),
    servedDifference: new Gauge({
      name: 'directory_reconciliation_difference',
      help: 'Served places in PostgreSQL minus served documents in the index at the last reconciliation',
      registers,
    }),
    datasetCoverage: new Gauge({
      name: 'directory_dataset_coverage_ratio',
      help: "Share of a dataset's served documents a crawl observed in the last 90 days (checked with the reconciliation)",
      labelNames: ['dataset'],
      registers,
    }),
    sweeps: new Counter({
      name: 'directory_sweeps_total',
      help: 'Sweep rounds this worker began (at start-up and every SWEEP_INTERVAL_MS)',
      registers,
    }),
    sweepRefolds: new Counter({
      name: 'directory_sweep_refolded_places_total',
      help: "Lagging places this worker's sweeper claimed, refolded and projected (each lagging place is refolded by one worker)",
      registers,
    }),
    ready: new Gauge({
      name: 'directory_worker_ready',
      help: '1 while the worker takes jobs, 0 while a dependency is down and it has paused',
      registers,
    }),
  };
}

/**
 * Counts from BullMQ's events, so the job processor stays as it is: outcomes and duration from each
 * completed job's result and timestamps, failures (and Elasticsearch's item errors) from failed attempts.
 */
export function observeIngestWorker(
  worker: Worker<IngestJobData, IngestJobResult>,
  metrics: IngestMetrics,
): void {
  worker.on('completed', (job, result) => {
    metrics.events.inc({ outcome: 'stored' }, result.stored);
    metrics.events.inc({ outcome: 'already_stored' }, result.duplicates);
    metrics.events.inc({ outcome: 'dead_lettered' }, result.deadLettered);
    if (job.processedOn !== undefined && job.finishedOn !== undefined) {
      metrics.batchDuration.observe((job.finishedOn - job.processedOn) / 1_000);
    }
  });
  worker.on('failed', (_job, error) => {
    metrics.failedAttempts.inc();
    countBulkItemFailures(metrics, error);
  });
}

/** Documents the index refused for its content (set aside as projection failures), by error type. */
export function countRefusedDocuments(
  metrics: IngestMetrics,
  refused: ReadonlyArray<{ errorType: string }>,
): void {
  for (const failure of refused) metrics.bulkItemFailures.inc({ reason: failure.errorType });
}

/** A projection that Elasticsearch refused item by item carries its failures (search-index's ProjectionError). */
export function countBulkItemFailures(metrics: IngestMetrics, error: unknown): void {
  if (!(error instanceof Error) || !('failures' in error) || !Array.isArray(error.failures)) return;
  for (const failure of error.failures as Array<{ reason?: unknown }>) {
    metrics.bulkItemFailures.inc({ reason: typeof failure.reason === 'string' ? failure.reason : 'unknown' });
  }
}

/**
 * Counts sweep rounds and the places they refold. The start-up sweep begins before the operator side
 * (and so these series) exists: what it counts meanwhile is held and added once `attach` is called.
 */
export function createSweepCounter() {
  let metrics: IngestMetrics | undefined;
  const held = { rounds: 0, refolded: 0 };
  return {
    round: () => {
      if (metrics) metrics.sweeps.inc();
      else held.rounds += 1;
    },
    page: (page: { projected: number; refused: ReadonlyArray<unknown> }) => {
      const refolded = page.projected + page.refused.length;
      if (metrics) metrics.sweepRefolds.inc(refolded);
      else held.refolded += refolded;
    },
    attach: (to: IngestMetrics) => {
      metrics = to;
      to.sweeps.inc(held.rounds);
      to.sweepRefolds.inc(held.refolded);
      held.rounds = 0;
      held.refolded = 0;
    },
  };
}
