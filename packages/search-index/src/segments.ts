import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@elastic/elasticsearch';

// A freshly loaded index is a few dozen segments (one per flush of the bulk load, merged only partly),
// and every search pays a fixed cost per segment (a terms lookup, a points tree, a scorer). Merging them
// before the index is served makes each request's cost follow the records it reads, not the load's history.

/**
 * The largest segment the merge aims for: Elasticsearch's own largest merged segment (`max_merged_segment`),
 * so a merged index holds no segment bigger than its merge policy would make, and the records later updated
 * in it are reclaimed by ordinary merges.
 */
export const MERGED_SEGMENT_BYTES = 5 * 1024 ** 3;

/** How many segments each shard is merged into: as few as hold its share of the index, at least one. */
export function mergedSegmentsPerShard(primaryStoreBytes: number, shards: number): number {
  const perShard = primaryStoreBytes / Math.max(1, shards);
  return Math.max(1, Math.ceil(perShard / MERGED_SEGMENT_BYTES));
}

export type MergeOutcome = { segmentsBefore: number; segmentsAfter: number; maxSegmentsPerShard: number };

/** The merge task is asked again after 50 ms, then twice as long each time up to a second. */
const FIRST_POLL_MS = 50;
const LONGEST_POLL_MS = 1_000;

/**
 * Force-merges `index` into `mergedSegmentsPerShard` segments per shard, as a task that is polled (a
 * merge of a large index outlasts any one request's timeout). Only for an index nobody serves yet: a
 * merge rewrites every segment, and the disk needs room for a second copy of the index meanwhile.
 */
export async function mergeSegments(client: Client, index: string, shards: number): Promise<MergeOutcome> {
  const before = await primarySegments(client, index);
  const maxSegmentsPerShard = mergedSegmentsPerShard(before.storeBytes, shards);
  const started = await client.indices.forcemerge({
    index,
    max_num_segments: maxSegmentsPerShard,
    wait_for_completion: false,
  });
  const { task } = started;
  if (task === undefined) throw new Error(`force-merge of ${index} started no task`);
  for (let pauseMs = FIRST_POLL_MS; ; pauseMs = Math.min(LONGEST_POLL_MS, pauseMs * 2)) {
    const status = await client.tasks.get({ task_id: task });
    if (status.error) throw new Error(`force-merge of ${index} failed: ${JSON.stringify(status.error)}`);
    const failedShards = (status.response as { _shards?: { failed?: number } } | undefined)?._shards?.failed;
    if (failedShards) throw new Error(`force-merge of ${index} failed on ${failedShards} shards`);
    if (status.completed) break;
    await sleep(pauseMs);
  }
  const after = await primarySegments(client, index);
  return { segmentsBefore: before.segments, segmentsAfter: after.segments, maxSegmentsPerShard };
}

async function primarySegments(
  client: Client,
  index: string,
): Promise<{ segments: number; storeBytes: number }> {
  const stats = await client.indices.stats({ index, metric: ['segments', 'store'] });
  const primaries = stats._all.primaries;
  return {
    segments: primaries?.segments?.count ?? 0,
    storeBytes: primaries?.store?.size_in_bytes ?? 0,
  };
}
