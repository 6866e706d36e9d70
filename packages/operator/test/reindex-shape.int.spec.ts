import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDoctorsIndex, indicesBehindAlias } from '@directory/search-index';
import { ingestBatch } from '@directory/ingest';
import {
  crawled,
  createTestDatabase,
  createTestSearch,
  published,
  type TestDatabase,
} from '@directory/testing';
import { reindex } from '../src/reindex.service.js';

const SITE = 'https://www.doctor-directory.example';

// ELASTICSEARCH_SHARDS / ELASTICSEARCH_REPLICAS reach every index created: the first one (worker start)
// and a reindex's new one (replicas added after the bulk load, before the swap).
describe('index shape: shards and replicas where indices are created', () => {
  let database: TestDatabase;
  const search = createTestSearch('index-shape');
  const alias = `${search.prefix}_doctors`;

  async function shapeOf(index: string) {
    const settings = await search.client.indices.getSettings({ index });
    const shape = settings[index]?.settings?.index;
    return { shards: shape?.number_of_shards, replicas: shape?.number_of_replicas };
  }

  beforeAll(async () => {
    database = await createTestDatabase('index-shape');
    await ensureDoctorsIndex(search.client, alias, { shards: 2, replicas: 0 });
    await ingestBatch(
      { db: database.db, search: { client: search.client, alias }, siteOrigin: SITE },
      ['S00001', 'S00002', 'S00003'].flatMap((placeId) => [
        { raw: crawled(placeId, 1, '2026-05-01T08:00:00Z', { name: `Praxis ${placeId}` }), source: 'test' },
        { raw: published(placeId, '2026-05-01T09:00:00Z'), source: 'test' },
      ]),
    );
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  it('creates the first index with the configured shards and replicas', async () => {
    const [first] = await indicesBehindAlias(search.client, alias);
    expect(await shapeOf(first ?? '')).toEqual({ shards: '2', replicas: '0' });
  });

  it('gives the reindexed index the configured shape, replicas included', async () => {
    // One replica on a one-node cluster stays unassigned (health yellow) but is what a second node gets.
    const merges: string[] = [];
    const summary = await reindex({
      db: database.db,
      client: search.client,
      alias,
      siteOrigin: SITE,
      shape: { shards: 3, replicas: 1 },
      // Green is impossible here: the swap accepts yellow, as an operator says on a one-node cluster.
      waitForHealth: 'yellow',
      catchUpMarginMs: 0,
      onProgress: (event) => {
        if (event.phase === 'merge') merges.push(event.detail);
      },
    });
    expect(await indicesBehindAlias(search.client, alias)).toEqual([summary.newIndex]);
    expect(await shapeOf(summary.newIndex)).toEqual({ shards: '3', replicas: '1' });
    // Merged before the replicas were added: each of the three shards holds at most one segment.
    expect(merges).toHaveLength(2);
    expect(merges[1]).toMatch(/^\d+ segments merged into [0-3] \(at most 1 per shard\) in [\d.]+ s$/);
    expect(summary.loaded).toBe(3);
  });
});
