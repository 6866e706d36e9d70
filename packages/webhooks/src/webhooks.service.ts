import type { Config } from '@directory/config';
import type { Database } from '@directory/database';
import { startDeliveryWorker, type AttemptOutcome } from './delivery.worker.js';
import { startDispatcher } from './dispatcher.js';
import { webhookOptionsOf, type WebhookOptions } from './endpoints.repository.js';
import { openWebhookQueue, type WebhookQueueConnection } from './queue.js';

export type WebhooksLogger = {
  warn: (fields: Record<string, unknown>, message: string) => void;
};

export type RunningWebhooks = { close: () => Promise<void> };

/**
 * The worker's webhook side: the dispatcher (changes feed → deliveries) and the delivery worker, on the
 * worker's queue connection. `close` stops the dispatcher, then lets in-flight attempts finish.
 */
export function startWebhooks(
  config: Config,
  deps: {
    db: Database;
    queue: WebhookQueueConnection;
    logger: WebhooksLogger;
    /** Tests: a resolver of their own, tiny delays. */
    options?: WebhookOptions;
    concurrency?: number;
    onOutcome?: (deliveryId: string, outcome: AttemptOutcome) => void;
  },
): RunningWebhooks {
  const options = deps.options ?? webhookOptionsOf(config);
  const queue = openWebhookQueue(deps.queue, config.WEBHOOK_RETRY_DELAYS_MS);
  const dispatcher = startDispatcher(
    { db: deps.db, queue },
    {
      pollMs: config.WEBHOOK_POLL_MS,
      onError: (error) =>
        deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'webhook dispatch failed',
        ),
    },
  );
  const worker = startDeliveryWorker(deps.db, {
    queue: deps.queue,
    options,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
    retryDelaysMs: config.WEBHOOK_RETRY_DELAYS_MS,
    concurrency: deps.concurrency ?? 8,
    ...(deps.onOutcome === undefined ? {} : { onOutcome: deps.onOutcome }),
  });
  worker.on('error', (error) => deps.logger.warn({ err: error.message }, 'webhook worker error'));
  return {
    close: async () => {
      await dispatcher.close();
      await worker.close();
      await queue.close();
    },
  };
}
