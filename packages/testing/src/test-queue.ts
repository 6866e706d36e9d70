import { Queue, QueueEvents, Worker, type Processor } from 'bullmq';
import { createTestRedis } from './test-redis.js';

export type TestQueue<Data, Result> = {
  queue: Queue<Data, Result>;
  events: QueueEvents;
  worker: Worker<Data, Result>;
  /** Stops the worker and the listener, removes the queue and every key of the spec's prefix. */
  cleanup: () => Promise<void>;
};

/**
 * A BullMQ queue on the local Redis under a key prefix of the spec's own, with its event listener and one
 * worker running `processor`. The listener reads from the start of the (spec-owned, empty) event stream,
 * not from its end ('$', the default): its first read may be sent after a job has already completed on a
 * busy machine, and the completion would then never be heard.
 */
export function createTestQueue<Data, Result>(
  label: string,
  processor: Processor<Data, Result>,
): TestQueue<Data, Result> {
  const redis = createTestRedis(label);
  const connection = { url: redis.url };
  const options = { connection, prefix: redis.prefix };
  const queue = new Queue<Data, Result>(label, options);
  const events = new QueueEvents(label, { ...options, lastEventId: '0-0' });
  const worker = new Worker<Data, Result>(label, processor, options);
  return {
    queue,
    events,
    worker,
    cleanup: async () => {
      await worker.close();
      await events.close();
      await queue.obliterate({ force: true });
      await queue.close();
      await redis.cleanup();
    },
  };
}
