import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Config } from '@directory/config';
import type { Database } from '@directory/database';
import { pruneDeliveries, readDeliveriesTableSize } from '@directory/webhooks';
import { every } from './every.js';

export type RetentionSettings = Pick<
  Config,
  'WEBHOOK_DELIVERY_RETENTION_DAYS' | 'WEBHOOK_DELIVERY_PRUNE_INTERVAL_MS' | 'OPS_SAMPLE_INTERVAL_MS'
>;

type RetentionLogger = {
  info: (fields: Record<string, unknown>, message: string) => void;
  warn: (fields: Record<string, unknown>, message: string) => void;
};

export function createRetentionMetrics(registry: Registry) {
  const registers = [registry];
  return {
    estimatedRows: new Gauge({
      name: 'directory_webhook_deliveries_estimated_rows',
      help: "Rows of webhook_deliveries, the planner's estimate as of the last vacuum or analyze (sampled)",
      registers,
    }),
    bytes: new Gauge({
      name: 'directory_webhook_deliveries_bytes',
      help: 'Bytes of webhook_deliveries on disk with its indexes and TOAST, pg_total_relation_size (sampled)',
      registers,
    }),
    pruned: new Counter({
      name: 'directory_webhook_deliveries_pruned_total',
      help: 'Final webhook deliveries past WEBHOOK_DELIVERY_RETENTION_DAYS that this worker deleted',
      registers,
    }),
  };
}

/**
 * The two periodic tasks of delivery retention: a prune run (when this worker wins the claim) and a
 * sample of the table's size. Kept apart from their schedule so a spec can run each once.
 */
export function webhookRetentionTasks(
  settings: RetentionSettings,
  deps: { db: Database; registry: Registry; logger: RetentionLogger; now?: () => Date },
) {
  const metrics = createRetentionMetrics(deps.registry);
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const stopping = new AbortController();
  return {
    stop: () => stopping.abort(),
    prune: async () => {
      const run = await pruneDeliveries(deps.db, {
        retentionDays: settings.WEBHOOK_DELIVERY_RETENTION_DAYS,
        // A little under the interval: this worker's next tick finds its own claim ended.
        claimMs: Math.floor(settings.WEBHOOK_DELIVERY_PRUNE_INTERVAL_MS * 0.9),
        holder,
        now: deps.now ?? (() => new Date()),
        onBatch: (deletedRows) => metrics.pruned.inc(deletedRows),
        signal: stopping.signal,
      });
      if (run !== null && run.deletedRows > 0) {
        deps.logger.info({ deletedRows: run.deletedRows, batches: run.batches }, 'webhook deliveries pruned');
      }
    },
    sample: async () => {
      const size = await readDeliveriesTableSize(deps.db);
      metrics.bytes.set(size.bytes);
      if (size.estimatedRows !== null) metrics.estimatedRows.set(size.estimatedRows);
    },
  };
}

/** Runs the prune every WEBHOOK_DELIVERY_PRUNE_INTERVAL_MS and the size sample every OPS_SAMPLE_INTERVAL_MS. */
export function startWebhookRetention(
  settings: RetentionSettings,
  deps: { db: Database; registry: Registry; logger: RetentionLogger },
) {
  const tasks = webhookRetentionTasks(settings, deps);
  const report = (task: string) => (error: string) =>
    deps.logger.warn({ err: error }, `webhook delivery ${task} failed`);
  const prune = every(settings.WEBHOOK_DELIVERY_PRUNE_INTERVAL_MS, tasks.prune, report('prune'));
  const sample = every(settings.OPS_SAMPLE_INTERVAL_MS, tasks.sample, report('size sample'));
  return {
    close: async () => {
      tasks.stop();
      await Promise.all([prune.close(), sample.close()]);
    },
  };
}
