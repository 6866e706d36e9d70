import { Worker, type Job } from 'bullmq';
import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { checkTarget, parseEndpointUrl } from './address-policy.js';
import { postSigned, type AttemptResult } from './delivery.js';
import type { WebhookOptions } from './endpoints.repository.js';
import {
  attemptError,
  decideAfterAttempt,
  disabledReason,
  isSuccessStatus,
  type AttemptDecision,
} from './outcome.js';
import {
  WEBHOOK_BACKOFF_TYPE,
  WEBHOOK_QUEUE_NAME,
  retryDelay,
  type WebhookJobData,
  type WebhookQueueConnection,
} from './queue.js';
import { openSecret } from './secret-box.js';
import { signedHeaders } from './signing.js';

export type DeliverySettings = {
  options: WebhookOptions;
  timeoutMs: number;
  disableAfterMs: number;
};

/** Thrown to have BullMQ retry the job on the schedule; the delivery row already has the details. */
export class DeliveryRetry extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryRetry';
  }
}

/** What one attempt came to (for logs and tests). */
export type AttemptOutcome = AttemptDecision | 'abandoned' | 'gone';

/**
 * One attempt of a delivery: loads it with its endpoint, refuses a target the address policy refuses
 * now (no connection is made), otherwise POSTs the stored payload with fresh signature headers, and
 * records the outcome. `retry` is for the caller to turn into a BullMQ retry.
 */
export async function attemptDelivery(
  db: Database,
  deliveryId: string,
  settings: DeliverySettings,
  lastAttempt: boolean,
): Promise<AttemptOutcome> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.endpoint_id',
      'webhook_deliveries.payload',
      'webhook_deliveries.status',
      'webhook_endpoints.url',
      'webhook_endpoints.enabled',
      'webhook_endpoints.secret_ciphertext',
    ])
    .where('webhook_deliveries.id', '=', deliveryId)
    .executeTakeFirst();
  // Deleted with its endpoint, or finished by an earlier run of this job.
  if (row === undefined || row.status !== 'pending') return 'gone';
  if (!row.enabled) {
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'abandoned' })
      .where('id', '=', deliveryId)
      .where('status', '=', 'pending')
      .execute();
    return 'abandoned';
  }

  const result = await send(row, settings);
  const now = new Date();
  if (isSuccessStatus(result.statusCode)) {
    // One transaction: the console never shows a delivered attempt beside a stale "failing since".
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status: 'delivered',
          attempts: sql<number>`attempts + 1`,
          last_status_code: result.statusCode,
          last_error: null,
          last_latency_ms: result.latencyMs,
          delivered_at: now,
        })
        .where('id', '=', deliveryId)
        .execute();
      await trx
        .updateTable('webhook_endpoints')
        .set({ failing_since: null, updated_at: now })
        .where('id', '=', row.endpoint_id)
        .where('failing_since', 'is not', null)
        .execute();
    });
    return 'delivered';
  }

  const error = attemptError(result.statusCode, result.error);
  return db.transaction().execute(async (trx) => {
    const endpoint = await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since: sql<Date>`coalesce(failing_since, ${now})`, updated_at: now })
      .where('id', '=', row.endpoint_id)
      .returning(['failing_since'])
      .executeTakeFirst();
    const failingSince = endpoint?.failing_since ?? now;
    const decision = decideAfterAttempt({
      statusCode: result.statusCode,
      failingSince,
      now,
      disableAfterMs: settings.disableAfterMs,
      lastAttempt,
    });
    await trx
      .updateTable('webhook_deliveries')
      .set({
        // Only a failure changes the status: another delivery's disabling may have abandoned this one.
        ...(decision === 'failed' ? { status: 'failed' as const } : {}),
        attempts: sql<number>`attempts + 1`,
        last_status_code: result.statusCode,
        last_error: error,
        last_latency_ms: result.latencyMs,
      })
      .where('id', '=', deliveryId)
      .execute();
    if (decision === 'disable') {
      await trx
        .updateTable('webhook_endpoints')
        .set({ enabled: false, disabled_reason: disabledReason(failingSince, error), updated_at: now })
        .where('id', '=', row.endpoint_id)
        .execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'abandoned' })
        .where('endpoint_id', '=', row.endpoint_id)
        .where('status', '=', 'pending')
        .execute();
    }
    return decision;
  });
}

async function send(
  row: { id: string; url: string; payload: string; secret_ciphertext: Buffer },
  settings: DeliverySettings,
): Promise<AttemptResult> {
  // Checked again at every attempt: what the name resolves to now is what matters.
  const parsed = parseEndpointUrl(row.url, settings.options.allowLoopback);
  const address = parsed.ok ? await checkTarget(parsed.value, settings.options) : parsed;
  if (!parsed.ok || !address.ok) {
    return {
      statusCode: null,
      error: `refused: ${address.ok ? 'invalid URL' : address.error}`,
      latencyMs: 0,
    };
  }
  let secret: string;
  try {
    secret = openSecret(row.secret_ciphertext, settings.options.secretKey);
  } catch {
    // Sealed under another key: every attempt would fail the same way, so it is recorded like one.
    return {
      statusCode: null,
      error: 'the signing secret cannot be read (was WEBHOOK_SECRET_KEY changed?)',
      latencyMs: 0,
    };
  }
  return postSigned({
    target: parsed.value,
    address: address.value,
    headers: { ...signedHeaders(secret, row.id, row.payload, new Date()) },
    body: row.payload,
    timeoutMs: settings.timeoutMs,
  });
}

export type DeliveryWorkerOptions = DeliverySettings & {
  queue: WebhookQueueConnection;
  retryDelaysMs: ReadonlyArray<number>;
  concurrency: number;
  onOutcome?: (deliveryId: string, outcome: AttemptOutcome) => void;
};

/** The BullMQ worker of the webhooks queue: one attempt per job run, retried on the configured schedule. */
export function startDeliveryWorker(db: Database, options: DeliveryWorkerOptions): Worker<WebhookJobData> {
  return new Worker<WebhookJobData>(
    WEBHOOK_QUEUE_NAME,
    async (job: Job<WebhookJobData>) => {
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const outcome = await attemptDelivery(db, job.data.deliveryId, options, lastAttempt);
      options.onOutcome?.(job.data.deliveryId, outcome);
      if (outcome === 'retry') throw new DeliveryRetry(`delivery ${job.data.deliveryId} failed; retrying`);
    },
    {
      connection: options.queue.connection,
      prefix: options.queue.prefix,
      concurrency: options.concurrency,
      settings: {
        backoffStrategy: (attemptsMade: number, type?: string) =>
          type === WEBHOOK_BACKOFF_TYPE ? retryDelay(attemptsMade, options.retryDelaysMs) : 0,
      },
    },
  );
}
