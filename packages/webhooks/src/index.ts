export {
  WEBHOOK_ENDPOINTS_PER_ACCOUNT,
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  sendTestEvent,
  setEndpointEnabled,
  webhookOptionsOf,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookDeps,
  type WebhookEndpoint,
  type WebhookOptions,
} from './endpoints.repository.js';
export {
  WEBHOOK_QUEUE_NAME,
  createWebhookQueue,
  openWebhookQueue,
  type WebhookQueue,
  type WebhookQueueConnection,
} from './queue.js';
export { checkEndpointUrl, isPublicAddress, parseEndpointUrl } from './address-policy.js';
export { signature, signedHeaders } from './signing.js';
export { dispatchOnce, requeueStalePending, startDispatcher, type Dispatcher } from './dispatcher.js';
export { attemptDelivery, startDeliveryWorker, type AttemptOutcome } from './delivery.worker.js';
export { startWebhooks, type RunningWebhooks, type WebhooksLogger } from './webhooks.service.js';
export {
  PRUNE_BATCH_SIZE,
  PRUNE_TASK,
  pruneCutoff,
  pruneDeliveries,
  type PruneOptions,
  type PruneRun,
} from './retention.js';
export { lastFinishedAt, readDeliveriesTableSize, type DeliveriesTableSize } from './retention.repository.js';
