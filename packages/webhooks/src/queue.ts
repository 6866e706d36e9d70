import { Queue, type ConnectionOptions, type DefaultJobOptions } from 'bullmq';
import { createQueueConnection, type Config } from '@directory/config';

export const WEBHOOK_QUEUE_NAME = 'webhooks';

/** The backoff a delivery retries with; the worker computes it from WEBHOOK_RETRY_DELAYS_MS. */
export const WEBHOOK_BACKOFF_TYPE = 'webhook-schedule';

export type WebhookJobData = { deliveryId: string };

export type WebhookQueueConnection = { connection: ConnectionOptions; prefix: string };

/** Where deliveries are queued; `enqueue` is idempotent (the job id is the delivery id). */
export type WebhookQueue = {
  enqueue: (deliveryIds: ReadonlyArray<string>) => Promise<void>;
  close: () => Promise<void>;
};

/** One attempt, then one more per configured delay. */
export function webhookJobOptions(retryDelaysMs: ReadonlyArray<number>): DefaultJobOptions {
  return {
    attempts: retryDelaysMs.length + 1,
    backoff: { type: WEBHOOK_BACKOFF_TYPE },
    removeOnComplete: { age: 3_600, count: 10_000 },
    // The delivery row keeps the outcome; the job is not needed after its last attempt.
    removeOnFail: { age: 86_400, count: 10_000 },
  };
}

/** The delay before retry number `attempt` (1 = the first retry); past the list, its last delay. */
export function retryDelay(attempt: number, retryDelaysMs: ReadonlyArray<number>): number {
  if (retryDelaysMs.length === 0) return 0;
  const index = Math.min(Math.max(attempt, 1), retryDelaysMs.length) - 1;
  return retryDelaysMs[index] ?? 0;
}

/** A queue on a connection the caller owns (the worker shares its own). */
export function openWebhookQueue(
  { connection, prefix }: WebhookQueueConnection,
  retryDelaysMs: ReadonlyArray<number>,
): WebhookQueue {
  const queue = new Queue<WebhookJobData>(WEBHOOK_QUEUE_NAME, {
    connection,
    prefix,
    defaultJobOptions: webhookJobOptions(retryDelaysMs),
  });
  return {
    enqueue: async (deliveryIds) => {
      if (deliveryIds.length === 0) return;
      // jobId = delivery id: a delivery queued twice (the re-enqueue of pending ones) runs once.
      await queue.addBulk(
        deliveryIds.map((deliveryId) => ({
          name: 'deliver',
          data: { deliveryId },
          opts: { jobId: deliveryId },
        })),
      );
    },
    close: () => queue.close(),
  };
}

/** A queue with a Redis connection of its own (the console's), closed with it. */
export function createWebhookQueue(config: Config): WebhookQueue {
  const queueConnection = createQueueConnection(config);
  const queue = openWebhookQueue(queueConnection.queue, config.WEBHOOK_RETRY_DELAYS_MS);
  return {
    enqueue: queue.enqueue,
    close: async () => {
      await queue.close();
      await queueConnection.close();
    },
  };
}
