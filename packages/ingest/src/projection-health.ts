import type { Queue } from 'bullmq';
import type { RedisClient } from '@directory/config';

/**
 * Staleness needs a memory shared by every worker and by `npm run status`: when the projector last
 * made progress. Workers write it to Redis when a batch projects, when the lag shrinks, and when there
 * is nothing to do (an idle projector is up to date, so staleness starts counting only once work waits).
 */
export function projectorProgressKey(redisPrefix: string): string {
  return `${redisPrefix}:operations:projector-progress-at`;
}

export async function recordProjectorProgress(
  redis: RedisClient,
  redisPrefix: string,
  at: Date,
): Promise<void> {
  // Never moves backwards: several workers write it.
  await redis.eval(
    "local current = tonumber(redis.call('GET', KEYS[1]) or '0') if tonumber(ARGV[1]) > current then redis.call('SET', KEYS[1], ARGV[1]) end",
    1,
    projectorProgressKey(redisPrefix),
    String(at.getTime()),
  );
}

export async function readProjectorProgress(redis: RedisClient, redisPrefix: string): Promise<Date | null> {
  const value = await redis.get(projectorProgressKey(redisPrefix));
  return value === null ? null : new Date(Number(value));
}

/** Work the projector has not done yet: places lagging the store, or batches queued, running or delayed. */
export function isWorkWaiting(lagPlaces: number, queue: QueueCounts): boolean {
  return lagPlaces > 0 || queue.waiting + queue.active + queue.delayed + queue.prioritized > 0;
}

/**
 * Seconds since the projector last made progress while work was waiting: 0 when nothing waits, null
 * when work waits and no worker has ever reported progress (no worker is running, or never was).
 */
export function stalenessSeconds(input: {
  workWaiting: boolean;
  lastProgressAt: Date | null;
  now: Date;
}): number | null {
  if (!input.workWaiting) return 0;
  if (input.lastProgressAt === null) return null;
  return Math.max(0, (input.now.getTime() - input.lastProgressAt.getTime()) / 1_000);
}

export function ageSeconds(since: Date | null, now: Date): number {
  return since === null ? 0 : Math.max(0, (now.getTime() - since.getTime()) / 1_000);
}

export type QueueCounts = {
  waiting: number;
  active: number;
  delayed: number;
  prioritized: number;
  failed: number;
  completed: number;
  paused: number;
};

export const QUEUE_STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'failed',
  'completed',
  'paused',
] as const;

/** A queue's job counts by state (BullMQ's getJobCounts), every state present. */
export async function readQueueCounts(queue: Pick<Queue, 'getJobCounts'>): Promise<QueueCounts> {
  const counts = await queue.getJobCounts(...QUEUE_STATES);
  return Object.fromEntries(QUEUE_STATES.map((state) => [state, counts[state] ?? 0])) as QueueCounts;
}
