import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { readFeedPage, readSnapshotHorizon } from '@directory/event-store';
import { ensureAccount } from '@directory/keys';
import {
  SITE_ORIGIN,
  createTestDatabase,
  createTestSearch,
  type TestDatabase,
  type TestSearch,
} from '@directory/testing';
import { snapshotStart } from '@directory/domain';
import { SandboxHoldsAccountsError, loadSandbox } from '../src/sandbox.service.js';

/**
 * `directory sandbox load`: the deterministic sample data through the real pipeline into the sandbox's
 * own database and alias, the same records on every load, and never into a database holding accounts.
 */
describe('loadSandbox', () => {
  let database: TestDatabase;
  let search: TestSearch;
  let alias: string;

  beforeAll(async () => {
    database = await createTestDatabase('sandbox-load');
    search = createTestSearch('sandbox-load');
    alias = `${search.prefix}_doctors-sandbox`;
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  const load = (seed: number) =>
    loadSandbox({
      db: database.db,
      search: { client: search.client, alias },
      siteOrigin: SITE_ORIGIN,
      events: 600,
      seed,
    });

  const servedIds = async (): Promise<string[]> => {
    const response = await search.client.search<{ doctor: { id: string } }>({
      index: alias,
      size: 1_000,
      query: { term: { served: true } },
      _source: ['doctor.id'],
    });
    return response.hits.hits.map((hit) => hit._source?.doctor.id ?? '').sort();
  };
  const eventCount = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from events`.execute(database.db)).rows[0]?.n);

  it('loads the same records for the same seed, every time, and replaces what was there', async () => {
    const progress: number[] = [];
    const first = await loadSandbox({
      db: database.db,
      search: { client: search.client, alias },
      siteOrigin: SITE_ORIGIN,
      events: 600,
      seed: 7,
      onProgress: (done) => progress.push(done),
    });
    expect(first.events).toBe(600);
    expect(first.stored + first.duplicates + first.deadLettered).toBe(600);
    expect(progress.at(-1)).toBe(600);
    const ids = await servedIds();
    expect(ids).toHaveLength(first.served);
    expect(first.served).toBeGreaterThan(20);

    const again = await load(7);
    expect(again).toEqual(first);
    expect(await servedIds()).toEqual(ids);
    expect(await eventCount()).toBe(first.stored);

    const other = await load(8);
    expect(await servedIds()).not.toEqual(ids);
    expect(await eventCount()).toBe(other.stored);
  });

  it('serves through the changes feed exactly what search serves', async () => {
    await load(7);
    const ids = await servedIds();
    const fromFeed: string[] = [];
    for (const country of ['de', 'es', 'it', 'pt', 'fr', 'gb', 'mx'] as const) {
      const from = snapshotStart(await readSnapshotHorizon(database.db, country));
      const read = await readFeedPage(database.db, { country, from, limit: 1_000 });
      fromFeed.push(...read.listed.map((place) => place.placeId));
    }
    expect(fromFeed.sort()).toEqual(ids);
  });

  it('refuses a database that holds accounts (a live one), and changes nothing', async () => {
    await load(7);
    const before = await eventCount();
    await ensureAccount(database.db, 'owner@example.com');
    await expect(load(9)).rejects.toBeInstanceOf(SandboxHoldsAccountsError);
    expect(await eventCount()).toBe(before);
  });
});
