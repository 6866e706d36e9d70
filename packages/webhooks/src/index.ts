export {
  WEBHOOK_ENDPOINTS_PER_ACCOUNT,
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  receivingRefusal,
  sendTestEvent,
  setEndpointEnabled,
  webhookOptionsOf,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookDeps,
  type WebhookEndpoint,
  type WebhookOptions,
} from './endpoints.repository.js';
export { checkEndpointUrl, isPublicAddress, parseEndpointUrl } from './address-policy.js';
export { signature, signedHeaders } from './signing.js';
export { dispatchOnce, startDispatcher, type Dispatcher, type DispatchLimits } from './dispatcher.js';
export { claimDelivery, type ScheduleLimits } from './schedule.js';
export {
  attemptDelivery,
  startDeliveryWorker,
  type AccountCharge,
  type AttemptOutcome,
  type DeliveryWorker,
} from './delivery.worker.js';
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
