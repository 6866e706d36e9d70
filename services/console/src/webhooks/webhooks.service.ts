import type { Database } from '@directory/database';
import type { AttemptDecision } from '@directory/keyed-access';
import {
  WEBHOOK_ENDPOINTS_PER_ACCOUNT,
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  receivingRefusal,
  sendTestEvent,
  setEndpointEnabled,
  type WebhookDelivery,
  type WebhookDeps,
  type WebhookEndpoint,
} from '@directory/webhooks';
import type { EndpointForm } from './webhooks.form.js';

/**
 * The console's view of the webhooks package (the one implementation, shared with the worker that
 * delivers): everything here is scoped to the signed-in account, and a refusal becomes a result the
 * page can show.
 */
export { WEBHOOK_ENDPOINTS_PER_ACCOUNT };

/** How many deliveries the endpoint page lists, newest first. */
export const DELIVERY_LOG_SIZE = 50;

export type CreateEndpointResult =
  | { kind: 'created'; endpoint: WebhookEndpoint; secret: string }
  /** The package's reason, for the page; `limitReached` when the account already had its endpoints. */
  | { kind: 'refused'; reason: string; limitReached: boolean };

export async function createEndpointForAccount(
  deps: WebhookDeps,
  accountId: string,
  form: EndpointForm,
): Promise<CreateEndpointResult> {
  const result = await createEndpoint(deps.db, { accountId, ...form }, deps.options);
  if (result.ok) return { kind: 'created', ...result.value };
  // The package gives one reason for every refusal; the count tells the limit (409) from bad input.
  const count = (await listEndpoints(deps.db, accountId)).length;
  return { kind: 'refused', reason: result.error, limitReached: count >= WEBHOOK_ENDPOINTS_PER_ACCOUNT };
}

export function listEndpointsOfAccount(db: Database, accountId: string): Promise<WebhookEndpoint[]> {
  return listEndpoints(db, accountId);
}

/** One of the account's own endpoints, or null (another account's endpoint id is treated as unknown). */
export function findEndpointOfAccount(
  db: Database,
  accountId: string,
  endpointId: string,
): Promise<WebhookEndpoint | null> {
  return findEndpoint(db, accountId, endpointId);
}

export function setEndpointEnabledOfAccount(
  db: Database,
  accountId: string,
  endpointId: string,
  enabled: boolean,
): Promise<WebhookEndpoint | null> {
  return setEndpointEnabled(db, accountId, endpointId, enabled);
}

export function deleteEndpointOfAccount(
  db: Database,
  accountId: string,
  endpointId: string,
): Promise<boolean> {
  return deleteEndpoint(db, accountId, endpointId);
}

export function listDeliveriesOfEndpoint(
  db: Database,
  accountId: string,
  endpointId: string,
): Promise<WebhookDelivery[]> {
  return listDeliveries(db, accountId, endpointId, DELIVERY_LOG_SIZE);
}

export type TestEventResult =
  | { kind: 'queued'; delivery: WebhookDelivery }
  | { kind: 'disabled' }
  /** The account's test-event budget is spent for now. */
  | { kind: 'overBudget'; retryAfterSeconds: number }
  /** The account's endpoints receive nothing now (no live key, or an operator's block): why. */
  | { kind: 'notReceiving'; reason: string }
  | { kind: 'notFound' };

/**
 * Makes a test event for the account's endpoint; a disabled endpoint gets none (it receives nothing).
 * The budget is spent once the endpoint is known to be the account's and enabled, before anything is
 * made.
 */
export async function sendTestEventToEndpoint(
  deps: WebhookDeps,
  accountId: string,
  endpointId: string,
  spendBudget: (accountId: string) => Promise<AttemptDecision>,
): Promise<TestEventResult> {
  const endpoint = await findEndpoint(deps.db, accountId, endpointId);
  if (endpoint === null) return { kind: 'notFound' };
  if (!endpoint.enabled) return { kind: 'disabled' };
  const budget = await spendBudget(accountId);
  if (!budget.allowed) return { kind: 'overBudget', retryAfterSeconds: budget.retryAfterSeconds };
  const refusal = await receivingRefusal(deps.db, accountId);
  if (refusal !== null) return { kind: 'notReceiving', reason: refusal };
  const delivery = await sendTestEvent(deps, accountId, endpointId);
  // Null now: the endpoint was disabled (or deleted) in between; a reload shows which.
  return delivery === null ? { kind: 'disabled' } : { kind: 'queued', delivery };
}
