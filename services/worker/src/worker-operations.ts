import type { Worker } from 'bullmq';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createQueueConnection, createRedisClient, type Config } from '@directory/config';
import type { Database } from '@directory/database';
import { createIngestQueue, type IngestJobData, type IngestJobResult } from '@directory/ingest';
import {
  postgresCheck,
  redisCheck,
  startProcessOperations,
  warnAboutRedisDurability,
} from '@directory/observability';
import { elasticsearchCheck, type RefusedProjection, type SearchClient } from '@directory/search-index';
import {
  countRefusedDocuments,
  createIngestMetrics,
  observeIngestWorker,
  type createSweepCounter,
} from './ingest-metrics.js';
import { watchPipelineHealth } from './pipeline-health.js';
import type { StorePositionWatch } from './store-position.js';
import { gateOnReadiness, type JobAdmission } from './readiness-gate.js';

export type WorkerOperations = {
  /** Counts documents the index refused (the projector's `onRefused`). */
  countRefused: (refused: ReadonlyArray<RefusedProjection>) => void;
  /** The listener's metrics registry, for series started after it (webhook delivery retention). */
  registry: Registry;
  close: () => Promise<void>;
};

/**
 * The worker's operator side: its listener (metrics, probes, and the queue dashboard when OPS_TOKEN is
 * set), pausing while a dependency is down, ingest and pipeline-health series, and a warning when Redis
 * is not set up to keep a queue safe.
 */
export async function startWorkerOperations(
  config: Config,
  worker: Worker<IngestJobData, IngestJobResult>,
  deps: {
    db: Database;
    search: SearchClient;
    logger: Logger;
    admission: JobAdmission;
    /** The sweeper's counts, held until the series exist. */
    sweeps: ReturnType<typeof createSweepCounter>;
    /** Whether the store went back in time behind the index: a readiness check and a series. */
    storePosition: StorePositionWatch;
  },
): Promise<WorkerOperations> {
  const { logger } = deps;
  // Its own connection, failing fast: readiness must not queue behind BullMQ's blocking commands.
  const redis = createRedisClient(config, 'service');
  redis.on('error', (error: Error) =>
    logger.debug({ err: error.message }, 'operations redis connection error'),
  );
  const queueConnection = createQueueConnection(config);
  const queue = createIngestQueue(queueConnection.queue);
  queue.on('error', (error: Error) =>
    logger.debug({ err: error.message }, 'operations queue connection error'),
  );

  if (config.OPS_TOKEN === undefined && config.WORKER_OPS_PORT !== 0) {
    logger.info('queue dashboard off: set OPS_TOKEN (32+ characters) to serve it on the operator listener');
  }
  const operations = await startProcessOperations({
    service: 'worker',
    host: config.OPS_HOST,
    port: config.WORKER_OPS_PORT,
    checks: [
      postgresCheck(deps.db),
      redisCheck(redis),
      elasticsearchCheck(deps.search, config.ELASTICSEARCH_INDEX),
      deps.storePosition.check,
    ],
    readinessTimeoutMs: config.READINESS_TIMEOUT_MS,
    ...(config.OPS_TOKEN === undefined ? {} : { dashboard: { queues: [queue], token: config.OPS_TOKEN } }),
  });
  if (operations.listener) {
    logger.info({ host: config.OPS_HOST, port: config.WORKER_OPS_PORT }, 'operator listener started');
  }

  const metrics = createIngestMetrics(operations.registry);
  deps.storePosition.register(operations.registry);
  observeIngestWorker(worker, metrics);
  deps.sweeps.attach(metrics);
  const gate = gateOnReadiness(worker, operations.readiness, deps.admission, {
    logger,
    onChange: (takingJobs) => metrics.ready.set(takingJobs ? 1 : 0),
  });
  const health = watchPipelineHealth(
    worker,
    {
      db: deps.db,
      redis,
      redisPrefix: config.REDIS_PREFIX,
      queue,
      search: { client: deps.search, alias: config.ELASTICSEARCH_INDEX },
      metrics,
      logger,
    },
    { sampleIntervalMs: config.OPS_SAMPLE_INTERVAL_MS, reconcileIntervalMs: config.RECONCILE_INTERVAL_MS },
  );
  void warnAboutRedisDurability(redis, logger);

  return {
    countRefused: (refused) => countRefusedDocuments(metrics, refused),
    registry: operations.registry,
    close: async () => {
      await gate.close();
      await health.close();
      await operations.close();
      await queue.close();
      await queueConnection.close();
      redis.disconnect();
    },
  };
}
