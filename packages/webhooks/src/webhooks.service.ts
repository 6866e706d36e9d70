import type { Config } from '@directory/config';
import type { Database } from '@directory/database';
import { startDeliveryWorker, type AccountCharge, type AttemptOutcome } from './delivery.worker.js';
import { startDispatcher } from './dispatcher.js';
import { webhookOptionsOf, type WebhookOptions } from './endpoints.repository.js';

export type WebhooksLogger = {
  warn: (fields: Record<string, unknown>, message: string) => void;
};

export type RunningWebhooks = { close: () => Promise<void> };

/** How long a claimed attempt stays its worker's beyond the attempt's own limit. */
const LEASE_MARGIN_MS = 30_000;

/**
 * The worker's webhook side: the dispatcher (changes feed → deliveries in PostgreSQL) and the delivery
 * worker (deliveries → attempts, scheduled fairly across endpoints and accounts). `close` stops the
 * dispatcher, then lets in-flight attempts finish.
 */
export function startWebhooks(
  config: Config,
  deps: {
    db: Database;
    logger: WebhooksLogger;
    /** Tests: a resolver of their own. */
    options?: WebhookOptions;
    /** Charges an attempt to its account's request ceiling (the worker's Redis); none without it. */
    chargeAttempt?: (accountId: string) => Promise<AccountCharge>;
    onOutcome?: (deliveryId: string, outcome: AttemptOutcome) => void;
  },
): RunningWebhooks {
  const options: WebhookOptions = {
    // Why an address was refused goes to this log only; the delivery log says that it was.
    onRefused: (refusal) => deps.logger.warn(refusal, 'webhook address refused'),
    ...(deps.options ?? webhookOptionsOf(config)),
  };
  const reportError = (message: string) => (error: unknown) =>
    deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, message);
  let waitingReported = false;
  const worker = startDeliveryWorker(deps.db, {
    options,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
    retryDelaysMs: config.WEBHOOK_RETRY_DELAYS_MS,
    concurrency: config.WEBHOOK_CONCURRENCY,
    endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    accountConcurrency: config.WEBHOOK_ACCOUNT_CONCURRENCY,
    leaseMs: config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS,
    pollMs: config.WEBHOOK_POLL_MS,
    onError: reportError('webhook attempt failed to run'),
    ...(deps.chargeAttempt === undefined ? {} : { chargeAttempt: deps.chargeAttempt }),
    ...(deps.onOutcome === undefined ? {} : { onOutcome: deps.onOutcome }),
  });
  const dispatcher = startDispatcher(deps.db, {
    pollMs: config.WEBHOOK_POLL_MS,
    maxPendingPerEndpoint: config.WEBHOOK_MAX_PENDING_PER_ENDPOINT,
    maxPending: config.WEBHOOK_MAX_PENDING,
    onDeliveries: () => {
      waitingReported = false;
      worker.wake();
    },
    onWaiting: () => {
      // Once per wait, not once per pass.
      if (waitingReported) return;
      waitingReported = true;
      deps.logger.warn(
        { maxPending: config.WEBHOOK_MAX_PENDING },
        'webhook dispatch waits: the pending deliveries reached WEBHOOK_MAX_PENDING',
      );
    },
    onUnwritable: (change) =>
      deps.logger.warn({ ...change }, 'webhook change set aside: its body could not be written'),
    onError: reportError('webhook dispatch failed'),
  });
  return {
    close: async () => {
      await dispatcher.close();
      await worker.close();
    },
  };
}
