import { countServedPlaces, lastPosition } from '@directory/event-store';
import {
  concreteIndexName,
  concreteIndices,
  indicesBehindAlias,
  type SearchClient,
} from '@directory/search-index';
import { deletableLeftovers, leaseIsLive, type ReindexLease } from './reindex-guard.js';
import { acquireReindexLock, readReindexLease } from './reindex-lock.js';
import { createIndexForBulkLoad, loadNewIndex, openCatchUpWindow } from './reindex-load.js';
import {
  emptySummary,
  progressReporter,
  type ReindexOptions,
  type ReindexSummary,
  type ReportProgress,
} from './reindex-options.js';
import {
  catchUpAfterSwap,
  deletePreviousIndices,
  keepServedIndexAfterFailure,
  mergeNewIndex,
  moveAlias,
  resetStoreMarksAfterSwap,
  waitForRequiredHealth,
} from './reindex-swap.js';
import { verify } from './reindex-verify.js';

export {
  ReindexCatchUpError,
  ReindexHealthError,
  ReindexSwapUnknownError,
  ReindexVerificationError,
} from './reindex-errors.js';
export type { ReindexOptions, ReindexProgress, ReindexSummary } from './reindex-options.js';

/**
 * Zero-downtime rebuild: a fresh `<alias>__<timestamp>` index is loaded from the places table while
 * readers and the worker keep using the alias; changes made meanwhile are caught up, the result is
 * verified, and only then does the alias move, in one atomic request. Writes carry external versions,
 * so catching up the same place twice, or racing the worker, can never put an older record in place.
 * Tombstones are copied too: without them the new index would accept a delayed older write of a
 * suppressed place and serve it again. Any failure before the swap deletes the new index and leaves the
 * alias where it was; a failure after it is a `ReindexCatchUpError` (the alias moved, the old index is kept).
 */
export async function reindex(options: ReindexOptions): Promise<ReindexSummary> {
  const now = options.now ?? (() => new Date());
  const newIndex = concreteIndexName(options.alias, now());
  if (options.dryRun) return dryRunSummary(options, newIndex, now);
  return buildUnderLock(options, newIndex, now);
}

/** What a run would find: the indices behind the alias, a run in progress, leftovers, the served count. */
async function dryRunSummary(
  options: ReindexOptions,
  newIndex: string,
  now: () => Date,
): Promise<ReindexSummary> {
  const { db, client, alias } = options;
  const summary = emptySummary(options, newIndex, await indicesBehindAlias(client, alias));
  const lease = await readReindexLease(client, alias);
  if (lease && leaseIsLive(lease, now())) summary.runningLease = lease;
  summary.leftovers = deletableLeftovers(
    await concreteIndices(client, alias),
    summary.previousIndices,
    lease,
    now(),
  );
  summary.servedCount = await countServedPlaces(db);
  return summary;
}

/**
 * Only the holder of the lock builds, and only it deletes leftovers: another run's index is never
 * one. The alias is read after taking the lock: a run that finished just before has moved it.
 */
async function buildUnderLock(
  options: ReindexOptions,
  newIndex: string,
  now: () => Date,
): Promise<ReindexSummary> {
  const { client, alias } = options;
  const progress = progressReporter(options);
  const leaseMs = options.lockLeaseMs ?? LOCK_LEASE_MS;
  const lock = await acquireReindexLock(client, alias, {
    index: newIndex,
    leaseMs,
    heartbeatMs: Math.max(1_000, Math.floor(leaseMs / 4)),
    breakLock: options.breakLock,
    now,
  });
  try {
    const summary = emptySummary(options, newIndex, await indicesBehindAlias(client, alias));
    if (lock.replaced) await reportTakenOverLock(options, lock.replaced, progress);
    summary.leftovers = deletableLeftovers(
      await concreteIndices(client, alias),
      summary.previousIndices,
      lock.lease,
      now(),
    );
    await deleteLeftovers(client, summary.leftovers, progress);
    await build(options, summary, lock.confirm, progress);
    return summary;
  } finally {
    await lock.release();
  }
}

async function reportTakenOverLock(
  options: ReindexOptions,
  replaced: ReindexLease,
  progress: ReportProgress,
): Promise<void> {
  await progress({
    phase: 'lock',
    detail:
      `took over the lock of ${replaced.holder} (building ${replaced.index} since ` +
      `${replaced.startedAt}; ${options.breakLock ? 'broken with --break-lock' : 'its lease had expired'})`,
  });
}

async function deleteLeftovers(
  client: SearchClient,
  leftovers: string[],
  progress: ReportProgress,
): Promise<void> {
  if (leftovers.length === 0) return;
  await progress({ phase: 'leftovers', indices: leftovers });
  for (const index of leftovers) await client.indices.delete({ index }, { ignore: [404] });
}

const LOCK_LEASE_MS = 60_000;

/**
 * Loads, merges, verifies and swaps in the new index, then catches up, resets the store marks and cleans
 * up.
 */
async function build(
  options: ReindexOptions,
  summary: ReindexSummary,
  confirmLock: () => Promise<void>,
  progress: ReportProgress,
): Promise<void> {
  const { db, client, alias } = options;
  const { newIndex, previousIndices } = summary;
  const catchUp = await openCatchUpWindow(options, summary, progress);
  // The new index is built from the store as of here on: the position its store marks start again from.
  const storePositionAtLoad = await lastPosition(db);
  const shape = options.shape ?? { shards: 1, replicas: 0 };
  await createIndexForBulkLoad(client, newIndex, shape);
  let swapSent = false;
  try {
    await loadNewIndex(options, summary, progress);
    await mergeNewIndex(client, newIndex, shape, progress);
    await waitForRequiredHealth(options, newIndex, shape, progress);
    await verify(options, newIndex, summary, catchUp, progress);
    // A run whose lease was taken over (it was presumed dead) or broken must not move the alias.
    await confirmLock();
    await progress({ phase: 'swap', detail: `${alias} → ${newIndex}` });
    swapSent = true;
    await moveAlias(client, alias, newIndex, previousIndices);
  } catch (error) {
    await keepServedIndexAfterFailure(client, alias, newIndex, swapSent, error);
  }
  await catchUpAfterSwap(catchUp, alias, newIndex, previousIndices);
  await resetStoreMarksAfterSwap(client, alias, storePositionAtLoad, progress);
  if (!options.keepOld) await deletePreviousIndices(client, summary, progress);
}

/**
 * Indices named `<alias>__*` that the alias does not point at and no running reindex is building:
 * leftovers of interrupted runs.
 */
export async function leftoverIndices(client: SearchClient, alias: string): Promise<string[]> {
  return deletableLeftovers(
    await concreteIndices(client, alias),
    await indicesBehindAlias(client, alias),
    await readReindexLease(client, alias),
    new Date(),
  );
}
