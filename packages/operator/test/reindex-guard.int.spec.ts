import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestBatch } from '@directory/ingest';
import { createDoctorsIndex, ensureDoctorsIndex, indicesBehindAlias } from '@directory/search-index';
import {
  crawled,
  createTestDatabase,
  createTestSearch,
  published,
  startProcess,
  type TestDatabase,
} from '@directory/testing';
import type { ReindexLease } from '../src/reindex-guard.js';
import { lockIndexName, ReindexLockedError, ReindexLockLostError } from '../src/reindex-lock.js';
import { leftoverIndices, reindex, ReindexHealthError } from '../src/reindex.service.js';

const SITE = 'https://www.doctor-directory.example';

// One reindex at a time (a lease in Elasticsearch), leftovers only without a live lease on them, and
// the health wait before the swap; on the shared Elasticsearch, under an index prefix of this spec's own.
describe('reindex guard: the lock, leftovers and the health wait', () => {
  let database: TestDatabase;
  const search = createTestSearch('reindex-guard');
  const alias = `${search.prefix}_doctors`;
  const run = (extra: Partial<Parameters<typeof reindex>[0]> = {}) =>
    reindex({
      db: database.db,
      client: search.client,
      alias,
      siteOrigin: SITE,
      catchUpMarginMs: 0,
      ...extra,
    });
  const exists = (index: string) => search.client.indices.exists({ index });
  const writeLease = (lease: ReindexLease) =>
    search.client.index({ index: lockIndexName(alias), id: 'reindex', document: lease, refresh: true });

  beforeAll(async () => {
    database = await createTestDatabase('reindex-guard');
    await ensureDoctorsIndex(search.client, alias);
    await ingestBatch(
      { db: database.db, search: { client: search.client, alias }, siteOrigin: SITE },
      ['G00001', 'G00002', 'G00003', 'G00004'].flatMap((placeId) => [
        { raw: crawled(placeId, 1, '2026-05-01T08:00:00Z', { name: `Praxis ${placeId}` }), source: 'test' },
        { raw: published(placeId, '2026-05-01T09:00:00Z'), source: 'test' },
      ]),
    );
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  it('refuses a second run while one is building, naming the holder, and leaves the first one index alone', async () => {
    const [live] = await indicesBehindAlias(search.client, alias);
    let loading!: () => void;
    const firstLoading = new Promise<void>((resolve) => (loading = resolve));
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const first = run({
      onProgress: async (event) => {
        if (event.phase !== 'load') return;
        loading();
        await held;
      },
    });
    try {
      await firstLoading;
      const second = run({ now: () => new Date(Date.now() + 1_000) });
      await expect(second).rejects.toThrow(ReindexLockedError);
      await expect(second).rejects.toThrow(
        /another reindex is running: \S+ pid \d+, building \w+, since \d{4}-/,
      );
      // What the first run builds is not a leftover while its lease is live: neither deleted nor listed.
      const building = (await search.client.cat.indices({ index: `${alias}__*`, format: 'json', h: 'index' }))
        .map((row) => row.index ?? '')
        .filter((index) => index !== live);
      expect(building).toHaveLength(1);
      expect(await leftoverIndices(search.client, alias)).toEqual([]);
    } finally {
      letGo();
    }
    const summary = await first;
    expect(await indicesBehindAlias(search.client, alias)).toEqual([summary.newIndex]);
    expect(summary.indexedCount).toBe(4);
    // Released at the end: the next run takes the lock at once.
    const next = await run();
    expect(await indicesBehindAlias(search.client, alias)).toEqual([next.newIndex]);
  });

  it('renews its lease while it runs: a run longer than the lease still holds the lock', async () => {
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let loading!: () => void;
    const firstLoading = new Promise<void>((resolve) => (loading = resolve));
    // A 2 s lease renewed every second, held for three times its length.
    const first = run({
      lockLeaseMs: 2_000,
      onProgress: async (event) => {
        if (event.phase !== 'load') return;
        loading();
        await held;
      },
    });
    try {
      await firstLoading;
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      await expect(run({ now: () => new Date(Date.now() + 1_000) })).rejects.toThrow(ReindexLockedError);
    } finally {
      letGo();
    }
    const summary = await first;
    expect(await indicesBehindAlias(search.client, alias)).toEqual([summary.newIndex]);
  });

  it('takes over an expired lease and deletes the crashed run index as a leftover', async () => {
    const crashed = `${alias}__20200101t000000000z`;
    await createDoctorsIndex(search.client, crashed);
    await writeLease({
      holder: 'crashed-host pid 1',
      index: crashed,
      startedAt: '2020-01-01T00:00:00.000Z',
      expiresAt: new Date(Date.now() - 1_000).toISOString(),
    });
    const progress: string[] = [];
    const summary = await run({
      onProgress: (event) => {
        if (event.phase === 'lock') progress.push(event.detail);
      },
    });
    expect(progress.join('\n')).toMatch(/took over the lock of crashed-host pid 1 .*lease had expired/);
    expect(summary.leftovers).toEqual([crashed]);
    expect(await exists(crashed)).toBe(false);
  });

  it('as the command: refuses while a live lease is held (exit 1, nothing deleted), proceeds with --break-lock', async () => {
    const building = `${alias}__20300101t000000000z`;
    await createDoctorsIndex(search.client, building);
    await writeLease({
      holder: 'other-host pid 77',
      index: building,
      startedAt: '2030-01-01T00:00:00.000Z',
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    });
    const env = { DATABASE_URL: database.url, ELASTICSEARCH_INDEX: alias, SITE_ORIGIN: SITE };
    const [before] = await indicesBehindAlias(search.client, alias);

    const dryRun = startProcess('packages/operator/src/reindex.cli.ts', ['--dry-run'], env);
    expect(await dryRun.exited, dryRun.output()).toBe(0);
    expect(dryRun.output()).toMatch(
      /another reindex is running: other-host pid 77, building \S+2030\S+ since 2030-/,
    );
    expect(dryRun.output()).not.toMatch(/leftover/);

    const refused = startProcess('packages/operator/src/reindex.cli.ts', [], env);
    expect(await refused.exited, refused.output()).toBe(1);
    expect(refused.output()).toMatch(
      /reindex refused, nothing changed: another reindex is running: other-host pid 77, building \S+2030\S+, since 2030-01-01T00:00:00.000Z .*--break-lock/,
    );
    expect(await exists(building)).toBe(true);
    expect(await indicesBehindAlias(search.client, alias)).toEqual([before]);

    const broken = startProcess('packages/operator/src/reindex.cli.ts', ['--break-lock'], env);
    expect(await broken.exited, broken.output()).toBe(0);
    expect(broken.output()).toMatch(/took over the lock of other-host pid 77 .*broken with --break-lock/);
    expect(broken.output()).toMatch(/leftover indices of interrupted runs: \S+2030\S+ \(deleted\)/);
    expect(await exists(building)).toBe(false);
    expect(await indicesBehindAlias(search.client, alias)).not.toEqual([before]);
  });

  it('stops before its swap when its lock is broken by another run, and leaves the alias where it was', async () => {
    const [live] = await indicesBehindAlias(search.client, alias);
    const failed = run({
      onProgress: async (event) => {
        // An operator breaks the lock while this run loads (it was presumed crashed).
        if (event.phase === 'load')
          await search.client.delete({ index: lockIndexName(alias), id: 'reindex', refresh: true });
      },
    });
    await expect(failed).rejects.toThrow(ReindexLockLostError);
    expect(await indicesBehindAlias(search.client, alias)).toEqual([live]);
    expect(await leftoverIndices(search.client, alias)).toEqual([]);
  });

  it('waits for green when the index has replicas: on a cluster too small for them it gives up clearly, alias unchanged', async () => {
    const [live] = await indicesBehindAlias(search.client, alias);
    // One replica more than the cluster has nodes for: green is impossible.
    const nodes = (await search.client.cat.nodes({ format: 'json', h: 'name' })).length;
    const started = Date.now();
    const failed = run({ shape: { shards: 1, replicas: nodes }, healthTimeoutMs: 3_000 });
    await expect(failed).rejects.toThrow(ReindexHealthError);
    await expect(failed).rejects.toThrow(
      /did not become green within 3 s \(status yellow, \d+ unassigned shards\)\. .*REINDEX_WAIT_FOR_HEALTH=yellow/,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await indicesBehindAlias(search.client, alias)).toEqual([live]);
    // Removed as any failure before the swap removes it.
    expect(await leftoverIndices(search.client, alias)).toEqual([]);

    const accepted = await run({
      shape: { shards: 1, replicas: nodes },
      waitForHealth: 'yellow',
      healthTimeoutMs: 3_000,
    });
    expect(await indicesBehindAlias(search.client, alias)).toEqual([accepted.newIndex]);
    expect(accepted.indexedCount).toBe(4);
  });
});
