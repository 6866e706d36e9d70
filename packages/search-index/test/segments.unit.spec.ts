import { describe, expect, it } from 'vitest';
import { MERGED_SEGMENT_BYTES, mergedSegmentsPerShard } from '../src/segments.js';

describe('mergedSegmentsPerShard', () => {
  it('merges a shard that fits in one largest segment into one', () => {
    expect(mergedSegmentsPerShard(0, 1)).toBe(1);
    expect(mergedSegmentsPerShard(2.2 * 1024 ** 3, 1)).toBe(1);
    expect(mergedSegmentsPerShard(MERGED_SEGMENT_BYTES, 1)).toBe(1);
  });

  it('keeps every segment within the largest a merge makes, per shard', () => {
    expect(mergedSegmentsPerShard(MERGED_SEGMENT_BYTES + 1, 1)).toBe(2);
    expect(mergedSegmentsPerShard(22 * 1024 ** 3, 1)).toBe(5);
    // The same store over four shards: each holds a quarter.
    expect(mergedSegmentsPerShard(22 * 1024 ** 3, 4)).toBe(2);
  });
});
