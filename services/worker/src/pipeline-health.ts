import type { Queue, Worker } from 'bullmq';
import type { RedisClient } from '@directory/config';
import type { Logger } from 'pino';
import type { Database } from '@directory/database';
import { readProjectionLag, streamPositionOf } from '@directory/event-store';
import {
  QUEUE_STATES,
  ageSeconds,
  isWorkWaiting,
  readProjectorProgress,
  readQueueCounts,
  readServedCounts,
  recordProjectorProgress,
  stalenessSeconds,
  type IngestJobData,
  type IngestJobResult,
} from '@directory/ingest';
import { readDatasetCoverage, searchableVersionOf, type SearchClient } from '@directory/search-index';
import { every } from './every.js';
import type { IngestMetrics } from './ingest-metrics.js';

export type PipelineHealthDependencies = {
  db: Database;
  redis: RedisClient;
  redisPrefix: string;
  queue: Queue;
  search: { client: SearchClient; alias: string };
  metrics: IngestMetrics;
  logger: Logger;
};

const FRESHNESS_POLL_MS = 50;
const FRESHNESS_GIVE_UP_MS = 60_000;
// The lag sample visits every lagging place (its cost grows with the lag), and every worker
// process samples: after a long outage it would keep a backend busy exactly while the backlog is being
// caught up. Sampling and reconciling may take at most this share of the time; they run less often while
// they are slow.
const SAMPLING_MAX_BUSY_SHARE = 0.1;

/**
 * Samples what the worker cannot see from its own jobs: queue counts, projection lag and staleness
 * (every `sampleIntervalMs`), served counts in the store against the index and each dataset's 90-day
 * crawl coverage (every `reconcileIntervalMs`),
 * and freshness (one place of each completed batch, followed until a search returns it).
 */
export function watchPipelineHealth(
  worker: Worker<IngestJobData, IngestJobResult>,
  deps: PipelineHealthDependencies,
  options: { sampleIntervalMs: number; reconcileIntervalMs: number },
): { close: () => Promise<void> } {
  const { metrics, logger } = deps;
  let previousLag: number | null = null;
  let completedSinceSample = false;
  let freshnessInFlight: Promise<void> | null = null;

  const progress = () => recordProjectorProgress(deps.redis, deps.redisPrefix, new Date());

  worker.on('completed', (_job, result) => {
    completedSinceSample = true;
    if (result.projected > 0) progress().catch(() => undefined);
    // One sample at a time keeps the cost to one small search per poll, whatever the throughput.
    if (result.stored > 0 && freshnessInFlight === null) {
      const placeId = result.samplePlaceId;
      if (placeId !== undefined) {
        freshnessInFlight = measureFreshness(deps, placeId)
          .catch((error: unknown) => logger.debug({ err: String(error) }, 'freshness sample failed'))
          .finally(() => (freshnessInFlight = null));
      }
    }
  });

  const sample = async () => {
    const [lag, queue] = await Promise.all([readProjectionLag(deps.db), readQueueCounts(deps.queue)]);
    for (const state of QUEUE_STATES) metrics.jobs.set({ queue: deps.queue.name, state }, queue[state]);
    const workWaiting = isWorkWaiting(lag.places, queue);
    // Idle counts as up to date; a shrinking lag is progress even when another worker made it.
    if (!workWaiting || completedSinceSample || (previousLag !== null && lag.places < previousLag)) {
      await progress();
    }
    completedSinceSample = false;
    previousLag = lag.places;
    const now = new Date();
    metrics.lagPlaces.set(lag.places);
    metrics.setAsidePlaces.set(lag.setAside);
    metrics.lagAge.set(ageSeconds(lag.oldestChangeAt, now));
    const lastProgressAt = await readProjectorProgress(deps.redis, deps.redisPrefix);
    metrics.staleness.set(stalenessSeconds({ workWaiting, lastProgressAt, now }) ?? 0);
  };

  const reconcile = async () => {
    const [served, coverage] = await Promise.all([
      readServedCounts(deps.db, deps.search.client, deps.search.alias),
      readDatasetCoverage(deps.search.client, deps.search.alias, new Date()),
    ]);
    metrics.servedPlaces.set({ store: 'postgresql' }, served.postgresql);
    metrics.servedPlaces.set({ store: 'index' }, served.index);
    metrics.servedDifference.set(served.postgresql - served.index);
    // A dataset that no longer has served documents drops out of the series rather than keeping its last value.
    metrics.datasetCoverage.reset();
    for (const dataset of coverage.datasets)
      metrics.datasetCoverage.set({ dataset: dataset.country }, dataset.coverage);
  };

  const sampling = every(
    options.sampleIntervalMs,
    sample,
    (error) => logger.debug({ err: error }, 'pipeline sample failed; next interval retries'),
    { maxBusyShare: SAMPLING_MAX_BUSY_SHARE },
  );
  const reconciling = every(
    options.reconcileIntervalMs,
    reconcile,
    (error) => logger.debug({ err: error }, 'reconciliation failed; next interval retries'),
    { maxBusyShare: SAMPLING_MAX_BUSY_SHARE },
  );
  return {
    close: async () => {
      await Promise.all([sampling.close(), reconciling.close(), freshnessInFlight]);
    },
  };
}

/**
 * Stored → searchable for one place: its newest event's stored time, then a search on the read alias
 * (which, unlike a GET, sees only what a refresh has made visible) polled until it returns the place at
 * that stream version or later. Places that are not served are skipped (a search never returns them).
 */
async function measureFreshness(deps: PipelineHealthDependencies, placeId: string): Promise<void> {
  const position = await streamPositionOf(deps.db, placeId);
  if (position === null || !position.served) return;
  const deadline = Date.now() + FRESHNESS_GIVE_UP_MS;
  while (Date.now() < deadline) {
    const version = await searchableVersionOf(deps.search.client, deps.search.alias, placeId);
    if (version !== undefined && version >= position.version) {
      deps.metrics.freshness.observe(Math.max(0, Date.now() - position.recordedAt.getTime()) / 1_000);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, FRESHNESS_POLL_MS));
  }
}
