// `npm run worker`: consume the ingest queue and keep the index in line with the store.
import { pino } from 'pino';
import { loadConfigOrExit } from '@directory/config';
import { createDatabase } from '@directory/database';
import { createSearchClient, ensureDoctorsIndex } from '@directory/search-index';
import { startIngestWorker } from './ingest.worker.js';
import { createJobAdmission } from './readiness-gate.js';
import { startWorkerOperations, type WorkerOperations } from './worker-operations.js';

const config = loadConfigOrExit();
const logger = pino({ level: config.LOG_LEVEL, name: 'worker' });
const db = createDatabase(config.DATABASE_URL);
const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs: 30_000, maxRetries: 3 });
await ensureDoctorsIndex(client, config.ELASTICSEARCH_INDEX);

const admission = createJobAdmission();
// The operator side is built on the running worker; it counts refused documents from then on.
const refusals: { count: WorkerOperations['countRefused'] } = { count: () => {} };
const running = startIngestWorker(
  {
    db,
    search: { client, alias: config.ELASTICSEARCH_INDEX },
    siteOrigin: config.SITE_ORIGIN,
    onRefused: (refused) => refusals.count(refused),
  },
  {
    queue: { connection: { url: config.REDIS_URL }, prefix: config.REDIS_PREFIX },
    concurrency: config.WORKER_CONCURRENCY,
    lockDurationMs: config.WORKER_LOCK_DURATION_MS,
    sweepIntervalMs: config.SWEEP_INTERVAL_MS,
    retry: { baseMs: config.INGEST_RETRY_DELAY_MS, maxMs: config.INGEST_RETRY_MAX_DELAY_MS },
    maxStalledCount: config.WORKER_MAX_STALLED_COUNT,
    logger,
    takingJobs: admission.isOpen,
  },
);
const operations = await startWorkerOperations(config, running.worker, {
  db,
  search: client,
  logger,
  admission,
});
refusals.count = operations.countRefused;
logger.info({ concurrency: config.WORKER_CONCURRENCY }, 'worker started');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'finishing in-flight batches, then stopping');
  await operations.close();
  await running.close();
  await db.destroy();
  await client.close();
  logger.info('worker stopped');
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    shutdown(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'unclean shutdown');
        process.exit(1);
      },
    );
  });
}
