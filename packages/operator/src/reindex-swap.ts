import { setTimeout as sleep } from 'node:timers/promises';
import {
  indicesBehindAlias,
  mergeSegments,
  resetStoreMarks,
  waitForIndexHealth,
  type IndexShape,
  type SearchClient,
} from '@directory/search-index';
import { requiredHealth } from './reindex-guard.js';
import { ReindexCatchUpError, ReindexHealthError, ReindexSwapUnknownError } from './reindex-errors.js';
import type { ReindexOptions, ReindexSummary, ReportProgress } from './reindex-options.js';

// The reindex around the alias move: the merge of the loaded index, the health it must reach first, the
// atomic move, what a failed or unanswered move leaves, and the catch-up, store-mark reset and cleanup
// after it.

const HEALTH_TIMEOUT_MS = 600_000;
const CATCH_UP_ATTEMPTS = 3;

/**
 * Flushes the load, then merges the loaded index's segments (a few dozen after a large load) into as few
 * as hold it, before replicas copy them and before anyone searches it: every search pays a cost per
 * segment. The old index is still complete and served meanwhile; the merge needs disk for a second copy
 * of the new index.
 */
export async function mergeNewIndex(
  client: SearchClient,
  newIndex: string,
  shape: IndexShape,
  progress: ReportProgress,
): Promise<void> {
  const started = Date.now();
  await progress({ phase: 'merge', detail: `merging the segments of ${newIndex}` });
  // Writes the loaded documents out as segments on Elasticsearch's flush threads (and so into the count
  // the merge starts from). Without it, the first refresh of the new index does that work on the refresh
  // threads (one per two cores), and the served index's own refresh waits behind it: live writes took a
  // second longer to become searchable.
  await client.indices.flush({ index: newIndex });
  const merged = await mergeSegments(client, newIndex, shape.shards);
  await progress({
    phase: 'merge',
    detail:
      `${merged.segmentsBefore} segments merged into ${merged.segmentsAfter} ` +
      `(at most ${merged.maxSegmentsPerShard} per shard) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  });
}

/**
 * Restores refresh and replicas on the loaded and merged index, then waits for the required health. Swapping to an
 * index whose replicas are not yet assigned would leave the alias one node loss away from a red index;
 * the old index is still complete and served while we wait.
 */
export async function waitForRequiredHealth(
  options: ReindexOptions,
  newIndex: string,
  shape: IndexShape,
  progress: ReportProgress,
): Promise<void> {
  const { client } = options;
  await client.indices.putSettings({
    index: newIndex,
    settings: { refresh_interval: '1s', number_of_replicas: shape.replicas },
  });
  const health = requiredHealth(options.waitForHealth ?? 'auto', shape.replicas);
  const timeoutMs = options.healthTimeoutMs ?? HEALTH_TIMEOUT_MS;
  await progress({
    phase: 'health',
    detail: `waiting up to ${timeoutMs / 1000} s for ${newIndex} to be ${health}`,
  });
  const reached = await waitForIndexHealth(client, newIndex, health, timeoutMs);
  if (!reached.reached) {
    throw new ReindexHealthError(
      `${newIndex} did not become ${health} within ${timeoutMs / 1000} s (status ${reached.status}, ` +
        `${reached.unassignedShards} unassigned shards${reached.error ? `; last error: ${reached.error}` : ''}). ` +
        (health === 'green'
          ? 'Does the cluster have more nodes than ELASTICSEARCH_REPLICAS? On a one-node cluster set REINDEX_WAIT_FOR_HEALTH=yellow.'
          : 'Is every node of the cluster up?'),
    );
  }
}

/** Moves the alias from the previous indices to the new one, in one atomic request. */
export async function moveAlias(
  client: SearchClient,
  alias: string,
  newIndex: string,
  previousIndices: ReadonlyArray<string>,
): Promise<void> {
  await client.indices.updateAliases({
    actions: [
      ...previousIndices.map((index) => ({ remove: { index, alias } })),
      { add: { index: newIndex, alias } },
    ],
  });
}

/**
 * After a failure of the build: the new index is deleted and the error thrown again, unless the alias
 * already serves it. A swap whose answer was lost (a timeout, a dropped connection) may have been
 * applied: the index the alias serves is never deleted, and when the alias moved the run goes on.
 */
export async function keepServedIndexAfterFailure(
  client: SearchClient,
  alias: string,
  newIndex: string,
  swapSent: boolean,
  error: unknown,
): Promise<void> {
  const swap = swapSent ? await swapOutcome(client, alias, newIndex) : 'unchanged';
  if (swap === 'unknown') throw new ReindexSwapUnknownError(alias, newIndex, error);
  if (swap === 'unchanged') {
    await client.indices.delete({ index: newIndex }, { ignore: [404] });
    throw error;
  }
}

/**
 * Where the alias points after a swap request that failed: moved to the new index, or not, or unknown.
 * The connection that lost the answer may take the next request down with it, so the alias is read a
 * few times before the answer is "unknown".
 */
async function swapOutcome(
  client: SearchClient,
  alias: string,
  newIndex: string,
): Promise<'moved' | 'unchanged' | 'unknown'> {
  for (let attempt = 1; attempt <= SWAP_READ_ATTEMPTS; attempt += 1) {
    try {
      return (await indicesBehindAlias(client, alias)).includes(newIndex) ? 'moved' : 'unchanged';
    } catch {
      if (attempt < SWAP_READ_ATTEMPTS) await sleep(SWAP_READ_PAUSE_MS);
    }
  }
  return 'unknown';
}

const SWAP_READ_ATTEMPTS = 3;
const SWAP_READ_PAUSE_MS = 250;

/** Writes that went to the old index between the last catch-up and the swap are replayed from the store. */
export async function catchUpAfterSwap(
  catchUp: () => Promise<Date>,
  alias: string,
  newIndex: string,
  previousIndices: ReadonlyArray<string>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await catchUp();
      return;
    } catch (error) {
      if (attempt >= CATCH_UP_ATTEMPTS)
        throw new ReindexCatchUpError(alias, newIndex, previousIndices, error);
      await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
    }
  }
}

/**
 * The live index is now a function of the store: a store that had gone back in time behind the old
 * index (`store-marks.ts`) is no longer behind this one, so what the index has seen starts again.
 */
export async function resetStoreMarksAfterSwap(
  client: SearchClient,
  alias: string,
  storePositionAtLoad: number,
  progress: ReportProgress,
): Promise<void> {
  try {
    await resetStoreMarks(client, alias, storePositionAtLoad);
  } catch (error) {
    await progress({
      phase: 'cleanup',
      detail: `could not reset the store marks (${error instanceof Error ? error.message : String(error)}); run the reindex again`,
    });
  }
}

export async function deletePreviousIndices(
  client: SearchClient,
  summary: ReindexSummary,
  progress: ReportProgress,
): Promise<void> {
  for (const index of summary.previousIndices) {
    await progress({ phase: 'cleanup', detail: `deleting ${index}` });
    try {
      await client.indices.delete({ index }, { ignore: [404] });
      summary.removedIndices.push(index);
    } catch (error) {
      // The new index is complete and served: a leftover is no failure, and the next run removes it.
      await progress({
        phase: 'cleanup',
        detail: `could not delete ${index} (${error instanceof Error ? error.message : String(error)}); the next reindex removes it`,
      });
    }
  }
}
