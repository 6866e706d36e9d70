import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDatabase, type Database } from '@directory/database';
import { readFeedPage, readSnapshotHorizon } from '@directory/event-store';
import { ensureAccount } from '@directory/keys';
import {
  REPOSITORY_ROOT,
  SITE_ORIGIN,
  createTestDatabase,
  nodeArguments,
  createTestSearch,
  type TestDatabase,
  type TestSearch,
} from '@directory/testing';
import { snapshotStart } from '@directory/domain';
import { SandboxRefusedError } from '../src/sandbox-guard.js';
import { loadSandbox } from '../src/sandbox.service.js';

/**
 * `directory sandbox load`: the deterministic sample data through the real pipeline into the sandbox's
 * own database and alias, the same records on every load, and only into a database the loader prepared
 * (its marker) or one that is completely empty: never a live store, however its URL is spelled.
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

  const load = (seed: number, db: Database = database.db) =>
    loadSandbox({
      db,
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
  const eventCount = async (db: Database = database.db) =>
    Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]?.n);
  const refusalOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'loaded',
      (error: unknown) => (error instanceof SandboxRefusedError ? error.refusal : error),
    );

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

  it('refuses a marked sandbox holding an event it did not write, and changes nothing', async () => {
    await load(7);
    const marker = await database.db.selectFrom('sandbox_marker').selectAll().executeTakeFirstOrThrow();
    expect(marker).toMatchObject({ sample_seed: 7, sample_events: 600 });
    await appendForeignEvent(database.db, 'not-from-the-sample');
    const before = await eventCount();
    expect(await refusalOf(load(8))).toBe('foreign-events');
    expect(await eventCount()).toBe(before);
    await sql`delete from events where event_id = 'not-from-the-sample'`.execute(database.db);
    expect(await refusalOf(load(7))).toBe('loaded');
  });

  it('refuses a database that holds accounts (a live one), and changes nothing', async () => {
    await load(7);
    const before = await eventCount();
    await ensureAccount(database.db, 'owner@example.com');
    expect(await refusalOf(load(9))).toBe('holds-accounts');
    expect(await eventCount()).toBe(before);
  });
});

/**
 * A live store before its first account (events from the worker, nobody signed up yet): the old guard,
 * "no accounts", let the loader empty it, and comparing URLs as text let `db` and `db:5432` pass as two
 * databases. The marker refuses it whatever the URL says.
 */
describe('loadSandbox on a live store with no account yet', () => {
  let live: TestDatabase;
  let search: TestSearch;
  let alias: string;

  beforeAll(async () => {
    live = await createTestDatabase('sandbox-live-store');
    search = createTestSearch('sandbox-live-store');
    alias = `${search.prefix}_doctors-sandbox`;
    await appendForeignEvent(live.db, 'live-event-1');
  });
  afterAll(async () => {
    await search.cleanup();
    await live.drop();
  });

  it('refuses it through a URL spelled another way (the default port left out), changing nothing', async () => {
    const url = new URL(live.url);
    expect(url.port).toBe('5432');
    url.port = ''; // the same server's same database
    const respelled = createDatabase(url.toString(), { maxConnections: 2 });
    try {
      await expect(
        loadSandbox({
          db: respelled,
          search: { client: search.client, alias },
          siteOrigin: SITE_ORIGIN,
          events: 50,
          seed: 7,
        }),
      ).rejects.toThrow(SandboxRefusedError);
      expect(await eventCount(live.db)).toBe(1);
      expect(await live.db.selectFrom('sandbox_marker').selectAll().execute()).toEqual([]);
    } finally {
      await respelled.destroy();
    }
  });

  it('`directory sandbox load` exits 2 and says why, for the respelled URL and for a URL no rule can equate', () => {
    const respelled = new URL(live.url);
    respelled.port = '';
    const elsewhere = new URL(live.url);
    elsewhere.pathname = '/postgres';
    for (const [liveUrl, sandboxUrl, reason] of [
      [live.url, respelled.toString(), /SANDBOX_DATABASE_URL: must name another database/],
      [elsewhere.toString(), live.url, /refused: the database holds events but no sandbox marker/],
    ] as const) {
      const run = spawnSync(process.execPath, nodeArguments(SANDBOX_CLI, ['load', '--events', '50']), {
        cwd: REPOSITORY_ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          DATABASE_URL: liveUrl,
          SANDBOX_DATABASE_URL: sandboxUrl,
          SANDBOX_ELASTICSEARCH_INDEX: alias,
        },
      });
      expect(run.stderr).toMatch(reason);
      expect(run.status).toBe(2);
    }
  });

  it('loads into it once it is emptied: an empty database is the one unmarked database it accepts', async () => {
    await sql`delete from events`.execute(live.db);
    const summary = await load(7, live.db);
    expect(summary.stored).toBeGreaterThan(0);
    expect(await live.db.selectFrom('sandbox_marker').select('sample_seed').execute()).toEqual([
      { sample_seed: 7 },
    ]);
  });

  // `load` in this block reads the other block's alias: give it this block's.
  const load = (seed: number, db: Database) =>
    loadSandbox({ db, search: { client: search.client, alias }, siteOrigin: SITE_ORIGIN, events: 600, seed });
  const eventCount = async (db: Database) =>
    Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]?.n);
});

const SANDBOX_CLI = 'packages/operator/src/sandbox.cli.ts';

/** An event no sandbox load writes, as a live worker or producer pointed at the database would. */
const appendForeignEvent = (db: Database, eventId: string) =>
  sql`insert into events (event_id, place_id, type, occurred_at, schema_version, payload)
      values (${eventId}, 'foreign-place', 'crawled', now(), 1, '{}')`.execute(db);
