import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesPage } from '@directory/domain';
import { createApiKey, ensureAccount } from '@directory/keys';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  crawled,
  freePort,
  lifecycle,
  published,
  startProcess,
  type RunningProcess,
  type TestDatabase,
  processEnvironment,
} from '@directory/testing';
import { fetchedResponse, openApiValidatorFor } from '../services/api/test/support/openapi-validator.js';
import { ingestFiles } from './ingest-files.fixture.js';

// The feed end to end: events through `npm run ingest --wait`, the worker folding them into the store,
// and `npm run api` serving the feed from the store, checked against its own /openapi.json.
describe('changes feed: ingest → worker → store → GET /api/v1/changes', () => {
  let database: TestDatabase;
  const redis = createTestRedis('changes-e2e');
  const search = createTestSearch('changes-e2e');
  const alias = `${search.prefix}_doctors`;
  const processes: RunningProcess[] = [];
  let env: Record<string, string>;
  let ingest: ReturnType<typeof ingestFiles>;
  let workDir: string;
  let base: string;
  let secret: string;
  let validator: ReturnType<typeof openApiValidatorFor>;

  beforeAll(async () => {
    database = await createTestDatabase('changes-e2e');
    workDir = await mkdtemp(join(tmpdir(), 'changes-e2e-'));
    await ensureDoctorsIndex(search.client, alias);
    env = processEnvironment(
      { databaseUrl: database.url, redisPrefix: redis.prefix, alias },
      { HOST: '127.0.0.1' },
    );
    ingest = ingestFiles(workDir, env);
    const port = await freePort();
    const worker = startProcess('services/worker/src/main.ts', [], env);
    const api = startProcess('services/api/src/server.ts', [], { ...env, API_PORT: String(port) });
    processes.push(worker, api);
    base = `http://127.0.0.1:${port}`;
    await Promise.all([worker.waitForOutput(/worker started/), api.waitForOutput(/Server listening/)]);
    const account = await ensureAccount(database.db, 'feed@example.com');
    ({ secret } = await createApiKey(database.db, { accountId: account.id, name: 'feed' }));
    const documentResponse = await fetch(`${base}/openapi.json`);
    validator = openApiValidatorFor(
      (await documentResponse.json()) as Parameters<typeof openApiValidatorFor>[0],
    );
  });

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop('SIGKILL')));
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
    await rm(workDir, { recursive: true, force: true });
  });

  async function feedPage(query: string): Promise<ChangesPage> {
    const response = await fetchedResponse(
      await fetch(`${base}/api/v1/changes?${query}`, { headers: { 'x-api-key': secret } }),
    );
    validator.check('/api/v1/changes', 'GET', response);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ChangesPage;
  }

  /**
   * Polls the feed from a cursor until `count` changes arrived (a change shows once every older
   * transaction on the server has finished), then reads once more to prove nothing else follows.
   */
  async function changesAfter(since: string, count: number) {
    const changes: ChangesPage['changes'] = [];
    let cursor = since;
    const deadline = Date.now() + 20_000;
    while (changes.length < count && Date.now() < deadline) {
      const page = await feedPage(`country=de&limit=2&since=${encodeURIComponent(cursor)}`);
      changes.push(...page.changes);
      cursor = page.page.nextCursor;
      if (!page.page.hasMore) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const after = await feedPage(`country=de&since=${encodeURIComponent(cursor)}`);
    expect(after.changes).toEqual([]);
    expect(after.page.nextCursor).toBe(cursor);
    return { changes, cursor };
  }

  it('follows ingested records from an empty feed, shows a suppression as delete, and leaves it out of a later start', async () => {
    const empty = await feedPage('country=de');
    expect(empty.changes).toEqual([]);

    await ingest([
      crawled('FEED-A', 1, '2026-01-01T10:00:00Z'),
      published('FEED-A', '2026-01-01T10:00:01Z', 'de'),
      crawled('FEED-B', 1, '2026-01-01T10:00:00Z'),
      published('FEED-B', '2026-01-01T10:00:01Z', 'de'),
      crawled('FEED-ES', 1, '2026-01-01T10:00:00Z'),
      published('FEED-ES', '2026-01-01T10:00:01Z', 'es'),
      crawled('FEED-HIDDEN', 1, '2026-01-01T10:00:00Z'), // never published: never in the feed
    ]);
    const first = await changesAfter(empty.page.nextCursor, 2);
    expect(first.changes.map((change) => [change.id, change.change]).sort()).toEqual([
      ['FEED-A', 'upsert'],
      ['FEED-B', 'upsert'],
    ]);
    for (const change of first.changes) {
      const single = await fetch(`${base}/api/v1/doctors/${change.id}`, { headers: { 'x-api-key': secret } });
      expect(await single.json()).toEqual({ doctor: change.doctor });
    }

    // A re-crawl with identical public data adds nothing; a suppression is a delete.
    await ingest([
      crawled('FEED-A', 2, '2026-01-02T10:00:00Z'),
      lifecycle('FEED-B', 'place.suppressed', '2026-01-02T10:00:00Z', { reason: 'owner request' }),
    ]);
    const second = await changesAfter(first.cursor, 1);
    expect(second.changes).toEqual([{ id: 'FEED-B', change: 'delete', doctor: null }]);
    const gone = await fetch(`${base}/api/v1/doctors/FEED-B`, { headers: { 'x-api-key': secret } });
    expect(gone.status).toBe(404);

    // The consumer that started when the dataset was empty, reading again from its first cursor: FEED-A
    // served, FEED-B removed after it started.
    const full = await changesAfter(empty.page.nextCursor, 2);
    expect(full.changes.map((change) => [change.id, change.change]).sort()).toEqual([
      ['FEED-A', 'upsert'],
      ['FEED-B', 'delete'],
    ]);

    // A consumer starting now gets a snapshot of what is served: FEED-B, suppressed before it started,
    // is not in its feed at all, now or later.
    let page = await feedPage('country=de&limit=1');
    const fresh = [...page.changes];
    while (page.page.hasMore) {
      page = await feedPage(`country=de&limit=1&since=${encodeURIComponent(page.page.nextCursor)}`);
      fresh.push(...page.changes);
    }
    expect(fresh.map((change) => [change.id, change.change])).toEqual([['FEED-A', 'upsert']]);
    expect(fresh[0]?.doctor).toEqual(first.changes.find((change) => change.id === 'FEED-A')?.doctor);
    await changesAfter(page.page.nextCursor, 0);
  });
});
