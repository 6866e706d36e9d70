// `npm run worker`: consume the ingest queue and keep the index in line with the store.
import { setFlagsFromString } from 'node:v8';
import { pino } from 'pino';
import {
  createQueueConnection,
  createRedisClient,
  databaseTimeouts,
  loadConfigOrExit,
} from '@directory/config';
import { createDatabase } from '@directory/database';
import { createAccountCharger } from '@directory/keyed-access';
import { markStopping, startTracing, stopTracing } from '@directory/observability';
import { createSearchClient, ensureDoctorsIndex } from '@directory/search-index';
import { startWebhooks } from '@directory/webhooks';
import { workerPoolProblem } from './database-pool.js';
import { createSweepCounter } from './ingest-metrics.js';
import { startIngestWorker } from './ingest.worker.js';
import { watchStorePosition } from './store-position.js';
import { createJobAdmission } from './readiness-gate.js';
import { startWebhookRetention } from './webhook-retention.js';
import { startWorkerOperations, type WorkerOperations } from './worker-operations.js';

const HEAP_GROWING_PERCENT = 50;

/** Resolves with false when `promise` has not settled within `ms` (it is left running). */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `directory worker`: runs until SIGTERM or SIGINT, then finishes its in-flight batches within
 * SHUTDOWN_TIMEOUT_MS and exits.
 */
export async function startWorker(): Promise<void> {
  // The worker's live heap stays flat over a backfill (the batches in flight, about 70 MB), but V8 sizes the
  // heap for speed: after each full collection it let the old generation grow to several times the live
  // size, and the resident memory with it. Half the live size again bounds it by the batches in flight.
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

  const config = loadConfigOrExit();
  const poolProblem = workerPoolProblem(config);
  if (poolProblem !== null) {
    process.stderr.write(`${poolProblem}\n`);
    process.exit(2);
  }
  const logger = pino({ level: config.LOG_LEVEL, name: 'worker' });
  await startTracing('worker'); // before the database is opened: its queries are traced from the start
  const db = createDatabase(config.DATABASE_URL, {
    maxConnections: config.DATABASE_POOL_MAX,
    timeouts: databaseTimeouts(config, 'job'),
  });
  const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs: 30_000, maxRetries: 3 });
  await ensureDoctorsIndex(client, config.ELASTICSEARCH_INDEX, {
    shards: config.ELASTICSEARCH_SHARDS,
    replicas: config.ELASTICSEARCH_REPLICAS,
  });

  const admission = createJobAdmission();
  // The operator side is built on the running worker; it counts refused documents from then on.
  const refusals: { count: WorkerOperations['countRefused'] } = { count: () => {} };
  const sweeps = createSweepCounter();
  const storePosition = watchStorePosition({
    db,
    search: { client, alias: config.ELASTICSEARCH_INDEX },
    logger,
    timeoutMs: Math.floor(config.READINESS_TIMEOUT_MS * 0.8),
  });
  // BullMQ's connection for the worker (its blocking reads use a duplicate); closed last.
  const queueConnection = createQueueConnection(config);
  const running = startIngestWorker(
    {
      db,
      search: { client, alias: config.ELASTICSEARCH_INDEX },
      siteOrigin: config.SITE_ORIGIN,
      onRefused: (refused) => refusals.count(refused),
      onStoreBehindIndex: storePosition.placesAhead,
    },
    {
      queue: queueConnection.queue,
      concurrency: config.WORKER_CONCURRENCY,
      lockDurationMs: config.WORKER_LOCK_DURATION_MS,
      sweepIntervalMs: config.SWEEP_INTERVAL_MS,
      sweepGraceMs: config.SWEEP_GRACE_MS,
      // A dead worker's claimed places wait as long as its jobs do for their locks to lapse.
      sweepClaimMs: config.WORKER_LOCK_DURATION_MS,
      onSweep: sweeps,
      retry: { baseMs: config.INGEST_RETRY_DELAY_MS, maxMs: config.INGEST_RETRY_MAX_DELAY_MS },
      maxStalledCount: config.WORKER_MAX_STALLED_COUNT,
      logger,
      takingJobs: admission.isOpen,
    },
  );
  // Signed webhooks: the dispatcher turns the changes feed into deliveries, the delivery worker sends them.
  // Each attempt counts against its account's request ceiling, in the counter its live keys' requests use.
  const ceilingRedis = createRedisClient(config, 'service');
  ceilingRedis.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis (request ceiling)'));
  const chargeAccount = createAccountCharger({
    redis: ceilingRedis,
    prefix: config.REDIS_PREFIX,
    accountMax: config.ACCOUNT_RATE_LIMIT_MAX,
    windowSeconds: config.RATE_LIMIT_WINDOW_S,
  });
  const webhooks = startWebhooks(config, {
    db,
    logger,
    chargeAttempt: (accountId) => chargeAccount(accountId, 1),
  });
  const operations = await startWorkerOperations(config, running.worker, {
    db,
    search: client,
    logger,
    admission,
    sweeps,
    storePosition,
  });
  refusals.count = operations.countRefused;
  // Final webhook deliveries past their retention are pruned (one worker at a time), the table's size sampled.
  const retention = startWebhookRetention(config, { db, registry: operations.registry, logger });
  logger.info({ concurrency: config.WORKER_CONCURRENCY }, 'worker started');

  // Bounded whatever the dependencies do (SHUTDOWN_TIMEOUT_MS): in-flight batches get most of the budget;
  // a batch stuck on a database or cluster that does not answer is abandoned (another worker retries it
  // once its lock expires), then the connections get the rest; past the budget the process exits anyway.
  let stopping = false;
  async function shutdown(signal: string): Promise<boolean> {
    if (stopping) return true;
    stopping = true;
    // At once, before anything is closed: /readyz fails ("draining"), and a job a blocking read hands over
    // from now on is given back unspent (the processor's admission check) rather than started.
    markStopping();
    admission.set(false);
    const budgetMs = config.SHUTDOWN_TIMEOUT_MS;
    logger.info({ signal, timeoutMs: budgetMs }, 'finishing in-flight batches, then stopping');
    setTimeout(() => {
      logger.error({ timeoutMs: budgetMs }, 'shutdown deadline passed; exiting without waiting further');
      process.exit(1);
    }, budgetMs).unref();
    // The operator side first (probes, samplers, dashboard): it holds no work.
    await settledWithin(operations.close(), budgetMs * 0.1);
    let clean = await settledWithin(
      Promise.all([running.close(), webhooks.close(), retention.close()]),
      budgetMs * 0.5,
    );
    if (!clean) {
      logger.warn('in-flight batches did not finish in time; leaving them to be retried');
      await settledWithin(running.close({ force: true }), budgetMs * 0.15);
    }
    const closed = await settledWithin(
      Promise.allSettled([
        db.destroy(),
        client.close(),
        queueConnection.close(),
        ceilingRedis.quit(),
        stopTracing(),
      ]),
      budgetMs * 0.15,
    );
    clean &&= closed;
    logger.info({ clean }, 'worker stopped');
    return clean;
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      shutdown(signal).then(
        (clean) => process.exit(clean ? 0 : 1),
        (error: unknown) => {
          logger.error({ err: error instanceof Error ? error.message : String(error) }, 'unclean shutdown');
          process.exit(1);
        },
      );
    });
  }
}
