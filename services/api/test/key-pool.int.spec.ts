import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@directory/config';
import { createApiKey, ensureAccount } from '@directory/keys';
import { openSearchStores, searchServiceDependencies, type SearchStores } from '@directory/search';
import {
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  type TestDatabase,
  type TestRedis,
  type TestSearch,
} from '@directory/testing';
import { buildApp } from '../src/app.js';

const CURSOR_SECRET = 'test-cursor-secret-0123456789-abcdefghij';
const POOL = 3;

// The stores and dependencies exactly as `npm run api` opens them (openSearchStores,
// searchServiceDependencies), with the main pool's every connection taken, as a burst of changes-feed
// pages would take them.
describe('API-key look-ups have a pool of their own', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let search: TestSearch;
  let stores: SearchStores;
  let app: FastifyInstance;
  let secret: string;

  beforeAll(async () => {
    database = await createTestDatabase('key-pool');
    redis = createTestRedis('key-pool');
    search = createTestSearch('key-pool');
    const config = loadConfig({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      ELASTICSEARCH_INDEX: `${search.prefix}_doctors`,
      CURSOR_SECRET,
      SEARCH_CACHE: 'off',
      DATABASE_POOL_MAX: String(POOL),
      DATABASE_KEY_POOL_MAX: '2',
    });
    stores = openSearchStores(config);
    app = await buildApp(
      { ...searchServiceDependencies(config, stores, new Registry()), cursorSecret: CURSOR_SECRET },
      { logLevel: false },
    );
    const account = await ensureAccount(database.db, 'pool@example.com');
    ({ secret } = await createApiKey(database.db, { accountId: account.id, name: 'pool' }));
  });
  afterAll(async () => {
    await app.close();
    await stores.close();
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
  });

  it('authenticates promptly while the main pool is exhausted, where the feed has to wait', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    const holders = Array.from({ length: POOL }, () =>
      stores.db.connection().execute(async () => {
        holding += 1;
        await held;
      }),
    );
    try {
      while (holding < POOL) await new Promise((resolve) => setTimeout(resolve, 10));

      const started = Date.now();
      const key = await app.inject({ url: '/api/v1/key', headers: { 'x-api-key': secret } });
      expect(key.statusCode, key.body).toBe(200);
      // A look-up waiting for a main-pool connection gives up after DATABASE_CONNECT_TIMEOUT_MS (1 s).
      expect(Date.now() - started).toBeLessThan(800);

      // The same exhaustion is real for the feed, which reads through the main pool.
      const feed = await app.inject({ url: '/api/v1/changes?country=de', headers: { 'x-api-key': secret } });
      expect(feed.statusCode).toBe(503);
    } finally {
      release();
      await Promise.all(holders);
    }
  });
});
