import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULTS, loadSandbox } from '@directory/operator';
import { SITE_ORIGIN } from '@directory/testing';
import { createApiHarness, type ApiHarness } from '../../../services/api/test/support/api-harness.js';
import { createDirectoryClient } from '../src/index.js';

/**
 * docs/api.md, "Getting started in five minutes", as written: a test key over a loaded sandbox, a first
 * request, every German record through the client, one fetched again, and a mirror from the changes feed
 * holding exactly what search serves. Then the same code with a live key reads the live dataset only.
 */
describe('getting started with a sandbox key', () => {
  let harness: ApiHarness;
  let baseUrl: string;
  let testKey: string;
  let liveKey: string;

  beforeAll(async () => {
    harness = await createApiHarness('client-getting-started');
    const app = await harness.newApp();
    await app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    testKey = (await harness.createKey('start@example.com', 'first steps', 'test')).secret;
    liveKey = (await harness.createKey('start@example.com', 'production', 'live')).secret;
    // Step 2, `npm run sandbox -- load`, on the spec's own sandbox (fewer events, still more than one page of German records).
    await loadSandbox({
      db: harness.sandbox.database.db,
      search: { client: harness.search.client, alias: harness.sandbox.alias },
      siteOrigin: SITE_ORIGIN,
      events: 2_500,
      seed: SANDBOX_DEFAULTS.seed,
    });
  }, 60_000);
  afterAll(() => harness.close());

  it('runs the documented steps against the sandbox', async () => {
    // Step 3: a first request.
    const first = await fetch(`${baseUrl}/api/v1/doctors?country=de&limit=3`, {
      headers: { 'X-API-Key': testKey },
    });
    expect(first.status).toBe(200);
    expect(((await first.json()) as { doctors: unknown[] }).doctors).toHaveLength(3);

    // Step 4: the client.
    const directory = createDirectoryClient({ baseUrl, apiKey: testKey });
    expect((await directory.key()).prefix.startsWith('dk_test_')).toBe(true);
    const ids: string[] = [];
    for await (const doctor of directory.searchAll({ country: 'de', limit: 100 })) ids.push(doctor.id);
    expect(ids.length).toBeGreaterThan(100);
    const firstRecord = await directory.getDoctor(ids[0] ?? '');
    expect(firstRecord.id).toBe(ids[0]);

    const mirror = new Map<string, unknown>();
    let cursor: string | undefined;
    const result = await directory.syncMirror({
      country: 'de',
      store: {
        upsert: (record) => void mirror.set(record.id, record),
        remove: (id) => void mirror.delete(id),
        saveCursor: (saved) => void (cursor = saved),
      },
    });
    expect(result.upserts).toBe(ids.length);
    expect([...mirror.keys()].sort()).toEqual([...ids].sort());
    expect(cursor).toBeDefined();

    // Step 5: the same code with a live key reads the live dataset (empty here), never the sandbox.
    const live = createDirectoryClient({ baseUrl, apiKey: liveKey });
    const liveIds: string[] = [];
    for await (const doctor of live.searchAll({ country: 'de', limit: 100 })) liveIds.push(doctor.id);
    expect(liveIds).toEqual([]);
  });
});
