import { createServer, request as httpRequest } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@directory/config';
import {
  buildSearchRequest,
  decodeCursor,
  documentDigest,
  foldPlace,
  projectPlace,
  toDoctorPage,
  toSearchDocument,
  type SearchFilters,
  type SearchHit,
} from '@directory/domain';
import { createDatabase } from '@directory/database';
import { readStreams } from '@directory/event-store';
import {
  concreteIndexName,
  createDoctorsIndex,
  createSearchClient,
  ensureDoctorsIndex,
  indicesBehindAlias,
  writeProjections,
} from '@directory/search-index';
import { ingestBatch, type ProjectorDependencies } from '@directory/ingest';
import {
  crawled,
  createTestDatabase,
  createTestSearch,
  freePort,
  lifecycle,
  published,
  startProcess,
  type TestDatabase,
} from '@directory/testing';
import {
  leftoverIndices,
  reindex,
  ReindexCatchUpError,
  ReindexSwapUnknownError,
  type ReindexSummary,
} from '../src/reindex.service.js';
import { lockIndexName } from '../src/reindex-lock.js';

const SITE = 'https://www.doctor-directory.example';
const SECRET = 'reindex-test-cursor-secret-0123456789';

function placeEvents(placeId: string, day: number) {
  const at = (hour: number) =>
    `2026-05-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`;
  return [crawled(placeId, 1, at(8), { name: `Praxis ${placeId}` }), published(placeId, at(9))];
}

describe('reindex: fresh index, catch-up, verify, atomic alias swap', () => {
  let database: TestDatabase;
  const search = createTestSearch('reindex');
  const alias = `${search.prefix}_doctors`;
  let deps: ProjectorDependencies;
  let counter = 0;

  async function ingestPlaces(count: number) {
    const items = [];
    for (let i = 0; i < count; i++) {
      counter += 1;
      items.push(...placeEvents(`R${String(counter).padStart(5, '0')}`, 1 + (counter % 28)));
    }
    await ingestBatch(
      deps,
      items.map((raw) => ({ raw, source: 'test' })),
    );
  }

  async function searchPage(filters: SearchFilters, limit: number, cursor?: string) {
    const after = cursor ? decodeCursor(cursor, filters, SECRET) : undefined;
    if (after && !after.ok) throw new Error(after.error);
    const response = await search.client.search({
      index: alias,
      ...buildSearchRequest(filters, limit, after?.value),
    });
    return toDoctorPage(response.hits.hits as SearchHit[], limit, filters, SECRET);
  }

  beforeAll(async () => {
    database = await createTestDatabase('reindex');
    await ensureDoctorsIndex(search.client, alias);
    deps = { db: database.db, search: { client: search.client, alias }, siteOrigin: SITE };
    await ingestPlaces(300);
    // One place that is not served: it must not be counted or loaded as a document.
    await ingestBatch(deps, [
      { raw: lifecycle('R00001', 'place.closed', '2026-06-01T00:00:00Z'), source: 'test' },
    ]);
    await search.client.indices.refresh({ index: alias });
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  it('keeps serving searches and taking ingestion while it runs, and ends equal to a replay of the store', async () => {
    const [before] = await indicesBehindAlias(search.client, alias);
    const filters: SearchFilters = { country: 'de' };
    // A cursor issued before the swap must still page correctly after it.
    const firstPage = await searchPage(filters, 10);
    expect(firstPage.page.nextCursor).not.toBeNull();

    let searching = true;
    let searches = 0;
    const searchErrors: unknown[] = [];
    const searchLoop = (async () => {
      while (searching) {
        try {
          const page = await searchPage(filters, 25);
          if (page.doctors.length === 0) searchErrors.push(new Error('empty page during reindex'));
          searches += 1;
        } catch (error) {
          searchErrors.push(error);
        }
        if (searchErrors.length > 0) break;
      }
    })();
    let ingesting = true;
    const ingestLoop = (async () => {
      while (ingesting) await ingestPlaces(5);
    })();

    let summary: ReindexSummary | undefined;
    try {
      summary = await reindex({
        db: database.db,
        client: search.client,
        alias,
        siteOrigin: SITE,
        catchUpMarginMs: 1_000,
      });
      // Keep ingesting a little after the swap: those writes must land in the new index through the alias.
      await ingestPlaces(5);
    } finally {
      ingesting = false;
      await ingestLoop;
      searching = false;
      await searchLoop;
    }

    expect(searchErrors).toEqual([]);
    expect(searches).toBeGreaterThan(0);
    if (!summary) throw new Error('reindex did not finish');
    expect(await indicesBehindAlias(search.client, alias)).toEqual([summary.newIndex]);
    expect(summary.newIndex).not.toBe(before);
    expect(summary.removedIndices).toEqual([before]);
    expect(summary.loaded).toBeGreaterThan(0);

    // The new index equals a replay of the store: every served place, byte for byte, nothing else.
    await search.client.indices.refresh({ index: alias });
    const places = await database.db.selectFrom('places').select(['place_id', 'served']).execute();
    const streams = await readStreams(
      database.db,
      places.map((place) => place.place_id),
    );
    const served = places.filter((place) => place.served);
    const indexed = await search.client.search<Record<string, unknown>>({
      index: alias,
      size: 10_000,
      query: { term: { served: true } },
    });
    expect(indexed.hits.hits).toHaveLength(served.length);
    for (const hit of indexed.hits.hits) {
      const state = foldPlace(hit._id ?? '', streams.get(hit._id ?? '') ?? []);
      expect(hit._source).toEqual(toSearchDocument(state, { siteOrigin: SITE }));
    }
    expect(indexed.hits.hits.some((hit) => hit._id === 'R00001')).toBe(false);

    const secondPage = await searchPage(filters, 10, firstPage.page.nextCursor ?? undefined);
    expect(secondPage.doctors).toHaveLength(10);
    const firstIds = new Set(firstPage.doctors.map((doctor) => doctor.id));
    for (const doctor of secondPage.doctors) expect(firstIds.has(doctor.id)).toBe(false);
  });

  /** Successful writes and refused ones (409s included) the index has taken since it was created. */
  async function indexingTotals(index: string) {
    const stats = await search.client.indices.stats({ index, metric: 'indexing' });
    const indexing = stats.indices?.[index]?.primaries?.indexing;
    return { written: indexing?.index_total ?? -1, refused: indexing?.index_failed ?? -1 };
  }

  /** As in production, the rows were written long before the reindex: outside its catch-up margin. */
  async function ageEveryRow() {
    await database.db
      .updateTable('places')
      .set({ updated_at: new Date(Date.now() - 3_600_000) })
      .execute();
  }

  it('replays every stream writing each document once: into the places table and the new index in one pass, in lanes', async () => {
    await ageEveryRow();
    let pages = 0;
    // A document stored by an "older fold", with its digest as every write stores it: the replay must
    // replace it in the table and the index.
    const stale = JSON.stringify({ placeId: 'R00002', served: true, stale: true });
    await sql`
      update places set document = ${stale}::json, document_digest = decode(${documentDigest(stale)}, 'hex')
      where place_id = 'R00002'`.execute(database.db);
    const summary = await reindex({
      db: database.db,
      client: search.client,
      alias,
      siteOrigin: SITE,
      replay: true,
      // Pages of 40 places in three lanes: lanes take pages in turn and no place is written twice.
      replayLanes: 3,
      replayPageSize: 40,
      onProgress: (event) => {
        if (event.phase === 'replay') pages += 1;
      },
    });
    const places = await database.db.selectFrom('places').select(['place_id', 'document']).execute();
    expect(pages).toBe(Math.ceil(places.length / 40));
    expect(summary.replayed).toBe(places.length);
    expect(summary.loaded).toBe(places.length);
    expect(summary.caughtUp).toBe(0);
    expect(summary.indexedCount).toBe(summary.servedCount);
    // Every place went to the new index exactly once: nothing re-copied, not even as refused 409s.
    expect(await indexingTotals(summary.newIndex)).toEqual({ written: places.length, refused: 0 });
    // The load was committed as segments before the index's refresh was switched back on, so the
    // first refresh (on the threads the served index refreshes on) has no load to write out.
    const flushes = await search.client.indices.stats({ index: summary.newIndex, metric: 'flush' });
    expect(flushes.indices?.[summary.newIndex]?.primaries?.flush?.total).toBeGreaterThanOrEqual(1);

    const streams = await readStreams(database.db, ['R00002']);
    const refolded = toSearchDocument(foldPlace('R00002', streams.get('R00002') ?? []), { siteOrigin: SITE });
    expect(places.find((place) => place.place_id === 'R00002')?.document).toEqual(refolded);
    const indexed = await search.client.get({ index: alias, id: 'R00002' });
    expect(indexed._source).toEqual(refolded);
  });

  it('a replay told to pause waits after each page before going on, and still writes every place once', async () => {
    await ageEveryRow();
    const pauseMs = 2_000;
    let lastPageAt = 0;
    let nextStepAt = 0;
    const summary = await reindex({
      db: database.db,
      client: search.client,
      alias,
      siteOrigin: SITE,
      replay: true,
      replayPauseMs: pauseMs,
      onProgress: (event) => {
        if (event.phase === 'replay') lastPageAt = performance.now();
        else if (lastPageAt > 0 && nextStepAt === 0) nextStepAt = performance.now();
      },
    });
    // The test's places fit one page: the pause lies between that page and the next step.
    expect(lastPageAt).toBeGreaterThan(0);
    expect(nextStepAt - lastPageAt).toBeGreaterThanOrEqual(pauseMs - 5);
    const places = await database.db.selectFrom('places').select('place_id').execute();
    expect(summary.replayed).toBe(places.length);
    expect(await indexingTotals(summary.newIndex)).toEqual({ written: places.length, refused: 0 });
  });

  it('a replay whose lane fails stops the others before their next page and leaves the alias where it was', async () => {
    const [live] = await indicesBehindAlias(search.client, alias);
    let pages = 0;
    const run = reindex({
      db: database.db,
      client: search.client,
      alias,
      siteOrigin: SITE,
      replay: true,
      replayLanes: 2,
      replayPageSize: 40,
      now: () => new Date('2030-02-01T00:00:00Z'),
      onProgress: (event) => {
        if (event.phase !== 'replay') return;
        pages += 1;
        if (pages === 1) throw new Error('lane failed');
      },
    });
    await expect(run).rejects.toThrow('lane failed');
    // The failed page and at most the other lane's page in flight: of eight.
    expect(pages).toBeLessThanOrEqual(2);
    expect(await indicesBehindAlias(search.client, alias)).toEqual([live]);
    expect(await leftoverIndices(search.client, alias)).toEqual([]);
  });

  it('catches up a worker write to a place the replay had already written, into the new index', async () => {
    await ageEveryRow();
    const renamed = crawled('R00003', 2, '2026-07-01T08:00:00Z', { name: 'Praxis Umbenannt' });
    let wrote = false;
    const summary = await reindex({
      db: database.db,
      client: search.client,
      alias,
      siteOrigin: SITE,
      replay: true,
      catchUpMarginMs: 1_000,
      // After the replay's page holding R00003 is written, a worker stores a new event for it (into the
      // places table and, through the alias, the old index): only the catch-up can bring it over.
      onProgress: async (event) => {
        if (event.phase !== 'replay' || wrote) return;
        wrote = true;
        await ingestBatch(deps, [{ raw: renamed, source: 'test' }]);
      },
    });
    expect(wrote).toBe(true);
    // Caught up by the catch-up before verification, and again (a refused 409) by the one after the swap,
    // whose window overlaps the previous one by the margin.
    expect(summary.caughtUp).toBeGreaterThanOrEqual(1);
    const row = await database.db
      .selectFrom('places')
      .select(['state_version', 'document'])
      .where('place_id', '=', 'R00003')
      .executeTakeFirstOrThrow();
    const indexed = await search.client.get<Record<string, unknown>>({ index: alias, id: 'R00003' });
    expect(indexed._index).toBe(summary.newIndex);
    expect(indexed._version).toBe(Number(row.state_version));
    expect(indexed._source).toEqual(row.document);
    expect(JSON.stringify(indexed._source)).toContain('Praxis Umbenannt');
    const places = await database.db.selectFrom('places').select('place_id').execute();
    expect(await indexingTotals(summary.newIndex)).toEqual({
      written: places.length + 1,
      refused: summary.caughtUp - 1,
    });
  });

  it('keeps refusing a stale write after a replay: a closed place stays a tombstone at its version', async () => {
    await ageEveryRow();
    const summary = await reindex({
      db: database.db,
      client: search.client,
      alias,
      siteOrigin: SITE,
      replay: true,
    });
    // R00001 was closed (beforeAll); a worker delayed with the fold from before the close writes late.
    const stream = (await readStreams(database.db, ['R00001'])).get('R00001') ?? [];
    const beforeClose = projectPlace('R00001', stream.slice(0, -1), { siteOrigin: SITE });
    expect(beforeClose.document.served).toBe(true);
    const late = await writeProjections(search.client, alias, [
      { placeId: 'R00001', version: beforeClose.stateVersion, source: beforeClose.document },
    ]);
    expect(late).toMatchObject({ written: 0, stale: 1 });
    const tombstone = await search.client.get<Record<string, unknown>>({ index: alias, id: 'R00001' });
    expect(tombstone._index).toBe(summary.newIndex);
    expect(tombstone._source).toEqual({ placeId: 'R00001', served: false });
  });

  it('leaves the alias and the old index untouched when Elasticsearch refuses the new index', async () => {
    const [live] = await indicesBehindAlias(search.client, alias);
    const at = new Date('2030-01-01T00:00:00Z');
    // The name the run will pick is already taken: index creation fails.
    await createDoctorsIndex(search.client, concreteIndexName(alias, at));
    await expect(
      reindex({ db: database.db, client: search.client, alias, siteOrigin: SITE, now: () => at }),
    ).rejects.toThrow(/resource_already_exists/);
    expect(await indicesBehindAlias(search.client, alias)).toEqual([live]);
    const stillThere = await search.client.count({ index: live ?? '' });
    expect(stillThere.count).toBeGreaterThan(0);
    expect(await leftoverIndices(search.client, alias)).toEqual([concreteIndexName(alias, at)]);
  });

  it('tells the truth when the catch-up after the swap fails: the alias moved, the old index is kept, a rerun repairs', async () => {
    const [live] = await indicesBehindAlias(search.client, alias);
    // A connection of the run's own, lost the moment the alias moves: the catch-up cannot read the store.
    const lost = createDatabase(database.url);
    const failed = reindex({
      db: lost,
      client: search.client,
      alias,
      siteOrigin: SITE,
      onProgress: (event) => {
        if (event.phase === 'swap') void lost.destroy();
      },
    });
    await expect(failed).rejects.toThrow(ReindexCatchUpError);
    await expect(failed).rejects.toThrow(/now points at \S+, but catching up .* Previous index kept: /);
    const [moved] = await indicesBehindAlias(search.client, alias);
    expect(moved).not.toBe(live);
    // Kept, so an operator can move the alias back; a rerun removes it as a leftover.
    expect(await leftoverIndices(search.client, alias)).toContain(live);

    const rerun = await reindex({ db: database.db, client: search.client, alias, siteOrigin: SITE });
    expect(rerun.indexedCount).toBe(rerun.servedCount);
    expect(await indicesBehindAlias(search.client, alias)).toEqual([rerun.newIndex]);
    expect(rerun.removedIndices).toEqual([moved]);
    // The kept index is a leftover for the rerun, which holds the lock: deleted before it builds.
    expect(rerun.leftovers).toContain(live);
    expect(await leftoverIndices(search.client, alias)).toEqual([]);
  });

  /**
   * A path to the real Elasticsearch that loses the answer to the alias swap (the request is applied,
   * the connection dropped before the reply), and then, when `thenRefuse`, every later request too.
   */
  async function swapAnswerLosingProxy(thenRefuse: boolean) {
    const upstream = new URL(loadConfig().ELASTICSEARCH_URL[0] ?? '');
    let swapAnswered = false;
    const server = createServer((request, response) => {
      if (swapAnswered && thenRefuse) {
        response.socket?.destroy();
        return;
      }
      const isSwap = request.method === 'POST' && request.url?.startsWith('/_aliases') === true;
      const forwarded = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
          // A fresh upstream connection per request: a reused one that Elasticsearch closed would fail a
          // request before the swap, and the test would see that failure instead of the lost answer.
          agent: false,
        },
        (answer) => {
          if (isSwap && !swapAnswered) {
            swapAnswered = true;
            answer.resume();
            answer.on('end', () => response.socket?.destroy());
            return;
          }
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      // The client may drop the socket mid-request (the proxy destroys it on purpose): not an error here.
      forwarded.on('error', () => response.socket?.destroy());
      request.pipe(forwarded);
    });
    // The client keeps its connections to the proxy; Node's 5 s idle close could race a slow run's next
    // request ("other side closed" before the swap, seen once in CI), so idle connections stay open.
    server.keepAliveTimeout = 0;
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return {
      client: createSearchClient(`http://127.0.0.1:${port}`, { timeoutMs: 30_000, maxRetries: 0 }),
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it('carries on when the swap was applied but its answer lost, and deletes no index the alias serves', async () => {
    const [live] = await indicesBehindAlias(search.client, alias);
    const proxy = await swapAnswerLosingProxy(false);
    try {
      const summary = await reindex({ db: database.db, client: proxy.client, alias, siteOrigin: SITE });
      expect(await indicesBehindAlias(search.client, alias)).toEqual([summary.newIndex]);
      expect(summary.removedIndices).toEqual([live]);
      const served = await search.client.count({ index: alias, query: { term: { served: true } } });
      expect(served.count).toBe(summary.servedCount);
    } finally {
      await proxy.client.close();
      await proxy.close();
    }
  });

  it('keeps both indices and says so when the swap answer is lost and the alias cannot be read', async () => {
    const [live] = await indicesBehindAlias(search.client, alias);
    const proxy = await swapAnswerLosingProxy(true);
    try {
      const failed = reindex({ db: database.db, client: proxy.client, alias, siteOrigin: SITE });
      await expect(failed).rejects.toThrow(ReindexSwapUnknownError);
      await expect(failed).rejects.toThrow(/serves either \S+ or the previous index, and both are kept/);
    } finally {
      await proxy.client.close();
      await proxy.close();
    }
    // The run could not release its lock either (every request refused): its lease would keep the next
    // run out for up to a minute, so it is removed here, as `--break-lock` would.
    await search.client.delete({ index: lockIndexName(alias), id: 'reindex' }, { ignore: [404] });
    const [moved] = await indicesBehindAlias(search.client, alias);
    expect(moved).not.toBe(live);
    expect(await leftoverIndices(search.client, alias)).toContain(live);
    await search.client.indices.delete({ index: live ?? '' });
  });

  it('runs as the operator command: --dry-run changes nothing, a real run swaps and deletes the old index', async () => {
    const env = { DATABASE_URL: database.url, ELASTICSEARCH_INDEX: alias, SITE_ORIGIN: SITE };
    const [before] = await indicesBehindAlias(search.client, alias);
    // An interrupted run's index, which no live lock covers.
    await createDoctorsIndex(search.client, concreteIndexName(alias, new Date('2031-01-01T00:00:00Z')));

    const dryRun = startProcess('packages/operator/src/reindex.cli.ts', ['--dry-run'], env);
    expect(await dryRun.exited, dryRun.output()).toBe(0);
    expect(dryRun.output()).toMatch(/dry run: would build \S+ with \d+ served places/);
    expect(dryRun.output()).toMatch(/leftover indices of interrupted runs: \S+2031\S+ \(would be deleted\)/);
    expect(await indicesBehindAlias(search.client, alias)).toEqual([before]);

    const run = startProcess('packages/operator/src/reindex.cli.ts', [], env);
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toMatch(/leftover indices of interrupted runs: \S+2031\S+ \(deleted\)/);
    expect(run.output()).toMatch(/done in .* served documents verified; deleted .*; peak RSS \d+ MB/);
    const [after] = await indicesBehindAlias(search.client, alias);
    expect(after).not.toBe(before);
    expect(await leftoverIndices(search.client, alias)).toEqual([]);
  });
});
