import { afterAll, describe, expect, it } from 'vitest';
import { createTestSearch } from '@directory/testing';
import { mergeSegments } from '../src/segments.js';

describe('merging a loaded index on the local Elasticsearch', () => {
  const search = createTestSearch('segments');
  afterAll(() => search.cleanup());

  it('merges the segments of several flushes into one per shard and keeps every document', async () => {
    const index = `${search.prefix}_loaded`;
    await search.client.indices.create({
      index,
      settings: { number_of_shards: 2, number_of_replicas: 0, refresh_interval: -1 },
    });
    // Each flush of a bulk load leaves segments of its own, as a large reindex does many times over.
    for (let batch = 0; batch < 4; batch += 1) {
      const operations = Array.from({ length: 100 }, (_, i) => [
        { index: { _index: index, _id: `p${batch}-${i}` } },
        { batch, i },
      ]).flat();
      await search.client.bulk({ operations });
      await search.client.indices.flush({ index });
    }

    const merged = await mergeSegments(search.client, index, 2);

    expect(merged.segmentsBefore).toBeGreaterThan(2);
    expect(merged).toMatchObject({ segmentsAfter: 2, maxSegmentsPerShard: 1 });
    await search.client.indices.refresh({ index });
    expect((await search.client.count({ index })).count).toBe(400);
  });

  it('fails with the index named when there is no index to merge', async () => {
    await expect(mergeSegments(search.client, `${search.prefix}_missing`, 1)).rejects.toThrow(
      /no such index/,
    );
  });
});
