import type { Queue } from 'bullmq';
import type { RedisClient } from '@directory/config';
import type { Database } from '@directory/database';
import { countPendingDeadLetters, newestEventRecordedAt, readProjectionLag } from '@directory/event-store';
import { checkReadiness, postgresCheck, redisCheck, type DependencyStatus } from '@directory/observability';
import {
  ageSeconds,
  isWorkWaiting,
  readProjectorProgress,
  readQueueCounts,
  readServedCounts,
  readStoreBehindIndex,
  stalenessSeconds,
} from '@directory/ingest';
import { elasticsearchCheck, readDatasetCoverage, type SearchClient } from '@directory/search-index';
import { readRetentionStatus } from '@directory/webhooks/retention';
import type { StatusSnapshot } from './attention.js';

export type StatusDependencies = {
  db: Database;
  redis: RedisClient;
  redisPrefix: string;
  queue: Pick<Queue, 'getJobCounts'>;
  search: { client: SearchClient; alias: string };
  timeoutMs: number;
  now: () => Date;
};

/**
 * Looks at everything once. A figure that needs a dependency that did not answer is left out (null)
 * instead of waited for, so the command answers within about the timeout whatever is down.
 */
export async function readStatus(deps: StatusDependencies): Promise<StatusSnapshot> {
  const { dependencies } = await checkReadiness(
    [
      postgresCheck(deps.db),
      redisCheck(deps.redis),
      elasticsearchCheck(deps.search.client, deps.search.alias),
    ],
    deps.timeoutMs,
  );
  const ready = (name: string) =>
    dependencies.some((dependency: DependencyStatus) => dependency.name === name && dependency.ready);
  const postgres = ready('postgresql');
  const redis = ready('redis');
  const elasticsearch = ready('elasticsearch');
  // A figure that fails or hangs after its dependency answered the check is shown as unknown.
  const bounded = <T>(work: () => Promise<T>): Promise<T | null> =>
    withTimeout(work(), deps.timeoutMs * 3).catch(() => null);

  const [queue, lag, deadLettersPending, newestAt, served, progress, storeBehind, deliveries, coverage] =
    await Promise.all([
      redis ? bounded(() => readQueueCounts(deps.queue)) : null,
      postgres ? bounded(() => readProjectionLag(deps.db)) : null,
      postgres ? bounded(() => countPendingDeadLetters(deps.db)) : null,
      postgres ? bounded(async () => ({ at: await newestEventRecordedAt(deps.db) })) : null,
      postgres && elasticsearch
        ? bounded(() => readServedCounts(deps.db, deps.search.client, deps.search.alias))
        : null,
      redis ? bounded(async () => ({ at: await readProjectorProgress(deps.redis, deps.redisPrefix) })) : null,
      postgres && elasticsearch
        ? bounded(async () => ({ reason: await readStoreBehindIndex(deps.db, deps.search) }))
        : null,
      postgres ? bounded(() => readRetentionStatus(deps.db)) : null,
      elasticsearch
        ? bounded(() => readDatasetCoverage(deps.search.client, deps.search.alias, deps.now()))
        : null,
    ]);
  const now = deps.now();
  return {
    dependencies,
    queue,
    projection:
      lag && queue && progress
        ? {
            lagPlaces: lag.places,
            setAsidePlaces: lag.setAside,
            oldestChangeAgeSeconds: ageSeconds(lag.oldestChangeAt, now),
            stalenessSeconds: stalenessSeconds({
              workWaiting: isWorkWaiting(lag.places, queue),
              lastProgressAt: progress.at,
              now,
            }),
          }
        : null,
    deadLettersPending,
    newestEvent: newestAt ? { ageSeconds: newestAt.at === null ? null : ageSeconds(newestAt.at, now) } : null,
    served,
    ...(storeBehind ? { storeBehindIndex: storeBehind.reason } : {}),
    webhookDeliveries: deliveries && {
      estimatedRows: deliveries.estimatedRows,
      bytes: deliveries.bytes,
      lastPrunedAgeSeconds:
        deliveries.lastPrunedAt === null ? null : ageSeconds(deliveries.lastPrunedAt, now),
    },
    datasetCoverage: coverage && coverage.datasets,
  };
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
