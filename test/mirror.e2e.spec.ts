import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChangesPage, Doctor } from '@directory/domain';
import { createApiKey, ensureAccount } from '@directory/keys';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  crawled,
  freePort,
  lifecycle,
  processEnvironment,
  published,
  startProcess,
  type RunningProcess,
  type TestDatabase,
} from '@directory/testing';
import { createEndpoint } from '@directory/webhooks';
import { fetchedResponse, openApiValidatorFor } from '../services/api/test/support/openapi-validator.js';
import { ingestFiles } from './ingest-files.fixture.js';

// Keeping a mirror, end to end (docs/api.md, "Keeping a mirror"): events through `ingest --wait`, the
// worker folding them and sending webhooks, the API serving the export and the changes feed. Three
// mirrors are kept the three documented ways and must each equal what paging the search returns:
// export + changes feed from the export's cursor; export + signed webhooks (kept by version per id);
// through later changes, a merge of two records and its undoing.

const WEBHOOK_SECRET_KEY = 'mirror-e2e-webhook-secret-key-0123456789abcdef';

type Delivery = { headers: Record<string, string>; body: string };
type DoctorEvent = {
  type: 'doctor.upserted' | 'doctor.deleted';
  data: {
    id: string;
    country: string;
    version: number;
    changedAt: string;
    doctor: Doctor | null;
    mergedInto?: string;
  };
};

/** Standard Webhooks verification written from the convention's text, apart from our signing code. */
function verifies(secret: string, delivery: Delivery): boolean {
  const id = delivery.headers['webhook-id'] ?? '';
  const timestamp = delivery.headers['webhook-timestamp'] ?? '';
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest();
  return (delivery.headers['webhook-signature'] ?? '').split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('keeping a mirror: export + changes feed + webhooks equal paging the search', () => {
  let database: TestDatabase;
  const redis = createTestRedis('mirror-e2e');
  const search = createTestSearch('mirror-e2e');
  const alias = `${search.prefix}_doctors`;
  const processes: RunningProcess[] = [];
  const deliveries: Delivery[] = [];
  let receiver: Server;
  let workDir: string;
  let env: Record<string, string>;
  let ingest: ReturnType<typeof ingestFiles>;
  let base: string;
  let secret: string;
  let signingSecret: string;
  let validator: ReturnType<typeof openApiValidatorFor>;

  beforeAll(async () => {
    database = await createTestDatabase('mirror-e2e');
    workDir = await mkdtemp(join(tmpdir(), 'mirror-e2e-'));
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        );
        deliveries.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverPort = (receiver.address() as AddressInfo).port;

    await ensureDoctorsIndex(search.client, alias);
    env = processEnvironment(
      { databaseUrl: database.url, redisPrefix: redis.prefix, alias },
      {
        HOST: '127.0.0.1',
        WEBHOOK_SECRET_KEY,
        // Only a test lets a webhook reach a loopback address, and only by this setting.
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        WEBHOOK_POLL_MS: '100',
      },
    );
    ingest = ingestFiles(workDir, env);
    const port = await freePort();
    const worker = startProcess('services/worker/src/main.ts', [], env);
    const api = startProcess('services/api/src/server.ts', [], { ...env, API_PORT: String(port) });
    processes.push(worker, api);
    base = `http://127.0.0.1:${port}`;
    await Promise.all([worker.waitForOutput(/worker started/), api.waitForOutput(/Server listening/)]);

    const account = await ensureAccount(database.db, 'mirror@example.com');
    ({ secret } = await createApiKey(database.db, { accountId: account.id, name: 'mirror' }));
    const endpoint = await createEndpoint(
      database.db,
      { accountId: account.id, url: `http://127.0.0.1:${receiverPort}/hooks`, countries: ['de'] },
      { secretKey: WEBHOOK_SECRET_KEY, allowLoopback: true },
    );
    if (!endpoint.ok) throw new Error(endpoint.error);
    signingSecret = endpoint.value.secret;
    const documentResponse = await fetch(`${base}/openapi.json`);
    validator = openApiValidatorFor(
      (await documentResponse.json()) as Parameters<typeof openApiValidatorFor>[0],
    );
  });

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop('SIGKILL')));
    await new Promise((resolve) => receiver.close(resolve));
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
    await rm(workDir, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const response = await fetchedResponse(
      await fetch(`${base}${path}`, { headers: { 'x-api-key': secret } }),
    );
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };

  /** Every record search serves in the dataset, by id, paged with its cursors. */
  async function searched(): Promise<Map<string, unknown>> {
    const records = new Map<string, unknown>();
    let cursor: string | null = null;
    do {
      const query: string = `country=de&limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      const response = await get(`/api/v1/doctors?${query}`);
      validator.check('/api/v1/doctors', 'GET', response);
      const page = response.json() as { doctors: Array<{ id: string }>; page: { nextCursor: string | null } };
      for (const doctor of page.doctors) records.set(doctor.id, doctor);
      cursor = page.page.nextCursor;
    } while (cursor !== null);
    return records;
  }

  it('builds the same directory three ways, through changes made after the export, a merge and an unmerge', async () => {
    await ingest(
      ['M-A', 'M-B', 'M-C'].flatMap((id) => [
        crawled(id, 1, '2026-01-01T10:00:00Z'),
        published(id, '2026-01-01T10:00:01Z', 'de'),
      ]),
    );
    await vi.waitFor(async () => expect((await searched()).size).toBe(3), { timeout: 20_000, interval: 200 });

    // Start: the export, its records exactly as search returns them, and the cursor to follow.
    const exported = await get('/api/v1/exports/de');
    const lines = exported.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const trailer = lines.pop() as { export: { complete: boolean; records: number; changesCursor: string } };
    expect(trailer.export).toMatchObject({ complete: true, records: 3 });
    expect(exported.headers['changes-cursor']).toBe(trailer.export.changesCursor);
    const feedMirror = new Map(lines.map((record) => [String(record.id), record as unknown]));
    const hookMirror = new Map(feedMirror);
    const hookVersions = new Map<string, number>();
    expect(feedMirror).toEqual(await searched());

    // Changes after the export: a new record, a changed one, a suppressed one.
    await ingest([
      crawled('M-D', 1, '2026-01-02T10:00:00Z'),
      published('M-D', '2026-01-02T10:00:01Z', 'de'),
      crawled('M-A', 2, '2026-01-02T10:00:00Z', { name: 'Praxis M-A (renamed)' }),
      lifecycle('M-B', 'place.suppressed', '2026-01-02T10:00:00Z', { reason: 'owner request' }),
    ]);
    const expected = await vi.waitFor(
      async () => {
        const now = await searched();
        expect([...now.keys()].sort()).toEqual(['M-A', 'M-C', 'M-D']);
        return now;
      },
      { timeout: 20_000, interval: 200 },
    );
    expect((expected.get('M-A') as { name: string }).name).toBe('Praxis M-A (renamed)');

    // Mirror 1: the changes feed from the export's cursor (dated entries: an export starts a 1.3 feed).
    let cursor = trailer.export.changesCursor;
    const followFeed = (want: Map<string, unknown>) =>
      vi.waitFor(
        async () => {
          for (;;) {
            const response = await get(
              `/api/v1/changes?country=de&limit=2&since=${encodeURIComponent(cursor)}`,
            );
            validator.check('/api/v1/changes', 'GET', response);
            const page = response.json() as ChangesPage;
            for (const change of page.changes) {
              expect(change.changedAt, change.id).toEqual(expect.any(String));
              if (change.doctor === null) feedMirror.delete(change.id);
              else feedMirror.set(change.id, change.doctor);
            }
            cursor = page.page.nextCursor;
            if (!page.page.hasMore) break;
          }
          expect(feedMirror).toEqual(want);
        },
        { timeout: 20_000, interval: 200 },
      );

    // Mirror 2: the signed webhooks, each verified and kept only when newer than what the mirror holds.
    const mergedInto = new Map<string, string>();
    const followHooks = (want: Map<string, unknown>) =>
      vi.waitFor(
        () => {
          for (const delivery of deliveries.splice(0)) {
            expect(verifies(signingSecret, delivery), delivery.body).toBe(true);
            expect(verifies(`whsec_${Buffer.from('another secret').toString('base64')}`, delivery)).toBe(
              false,
            );
            const event = JSON.parse(delivery.body) as DoctorEvent;
            validator.checkWebhook(event.type, event);
            const { id, version, doctor } = event.data;
            if (event.data.mergedInto !== undefined) mergedInto.set(id, event.data.mergedInto);
            if ((hookVersions.get(id) ?? 0) > version) continue;
            hookVersions.set(id, version);
            if (doctor === null) hookMirror.delete(id);
            else hookMirror.set(id, doctor);
          }
          expect(hookMirror).toEqual(want);
        },
        { timeout: 20_000, interval: 200 },
      );
    await followFeed(expected);
    await followHooks(expected);

    // A merge (M-C into M-A) and its undoing: both mirrors follow, and still equal the search.
    await ingest([lifecycle('M-C', 'place.merged', '2026-01-03T10:00:00Z', { into: 'M-A' })]);
    const afterMerge = await vi.waitFor(
      async () => {
        const now = await searched();
        expect([...now.keys()].sort()).toEqual(['M-A', 'M-D']);
        return now;
      },
      { timeout: 20_000, interval: 200 },
    );
    await followFeed(afterMerge);
    await followHooks(afterMerge);
    expect(mergedInto.get('M-C'), 'the delete of a merged-away record names its survivor').toBe('M-A');

    await ingest([lifecycle('M-C', 'place.unmerged', '2026-01-04T10:00:00Z')]);
    const afterUnmerge = await vi.waitFor(
      async () => {
        const now = await searched();
        expect([...now.keys()].sort()).toEqual(['M-A', 'M-C', 'M-D']);
        return now;
      },
      { timeout: 20_000, interval: 200 },
    );
    await followFeed(afterUnmerge);
    await followHooks(afterUnmerge);
  });
});
