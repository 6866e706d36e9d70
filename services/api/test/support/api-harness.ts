import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Redis } from 'ioredis';
import { createServiceRedis } from '@directory/keyed-access';
import type { Datasets, SearchRequestCache } from '@directory/search';
import { createApiKey, createKeyVouches, ensureAccount, revokeApiKey } from '@directory/keys';
import { loadConfig } from '@directory/config';
import { createSearchClient, ensureDoctorsIndex } from '@directory/search-index';
import {
  SITE_ORIGIN,
  createTestDatabase,
  createTestRedis,
  createTestSandbox,
  createTestSearch,
  indexPlaces,
  testDatasets,
  type TestDatabase,
  type TestSandbox,
  type TestRedis,
  type TestSearch,
} from '@directory/testing';
import { buildApp, type AppDependencies, type AppOptions } from '../../src/app.js';
import type { ApiKeyMode, PlaceState } from '@directory/domain';
import { createOpenApiValidator } from './openapi-validator.js';

export const CURSOR_SECRET = 'test-cursor-secret-0123456789-abcdefghij';

export type ApiHarness = {
  database: TestDatabase;
  redis: TestRedis;
  search: TestSearch;
  alias: string;
  /** The dataset `dk_test_` keys read: a database and an alias of its own. */
  sandbox: TestSandbox;
  /** The datasets an app reads, over the spec's search client. */
  datasets: Datasets;
  /** Builds another app instance over the same database, Redis prefix and alias (a second "process"). */
  newApp: (options?: HarnessAppOptions) => Promise<FastifyInstance>;
  index: (states: PlaceState[]) => Promise<void>;
  createKey: (
    email?: string,
    name?: string,
    mode?: ApiKeyMode,
  ) => Promise<{ id: string; secret: string; accountId: string }>;
  revokeKey: (id: string) => Promise<void>;
  close: () => Promise<void>;
};

/** Abuse-resistance settings for tests: generous, so only the specs about them ever reach them. */
export const TEST_ABUSE_LIMITS = {
  accountMax: 100_000,
  failedAuth: { max: 1_000, windowSeconds: 60, refusalDelayMs: 0 },
  unknownKeyCacheSeconds: 60,
  trustedProxies: [],
  clientIpv6PrefixBits: 64,
} as const satisfies Partial<AppDependencies>;

export type HarnessAppOptions = AppOptions &
  Partial<
    Pick<
      AppDependencies,
      | 'accountMax'
      | 'failedAuth'
      | 'unknownKeyCacheSeconds'
      | 'trustedProxies'
      | 'usageFlushIntervalMs'
      | 'exportLimits'
    >
  > & {
    rateLimit?: { max: number; windowSeconds: number };
    /** Override the search client's node (e.g. a closed port). */
    elasticsearchUrl?: string;
    /** Override the Redis URL (e.g. a closed port). */
    redisUrl?: string;
    /** Put the hot-query cache in front of Elasticsearch (none by default: specs read their writes at once). */
    searchCache?: SearchRequestCache;
  };

/** Real PostgreSQL, Redis and Elasticsearch, isolated per spec file (own database, prefix, alias). */
export async function createApiHarness(label: string): Promise<ApiHarness> {
  const database = await createTestDatabase(label);
  const redis = createTestRedis(label);
  const search = createTestSearch(label);
  const alias = `${search.prefix}_doctors`;
  await ensureDoctorsIndex(search.client, alias);
  const sandbox = await createTestSandbox(label, search.client, alias);
  const datasetsOver = (client: TestSearch['client'], cache?: SearchRequestCache) =>
    testDatasets({
      client,
      live: { alias, db: database.db },
      sandbox,
      cursorSecret: CURSOR_SECRET,
      ...(cache ? { cache } : {}),
    });
  const apps: FastifyInstance[] = [];
  const extraConnections: Redis[] = [];

  return {
    database,
    redis,
    search,
    alias,
    sandbox,
    datasets: datasetsOver(search.client),
    newApp: async (options = {}) => {
      // Each app gets its own Redis connection, like a separate process would.
      const connection = createServiceRedis(options.redisUrl ?? redis.url, { autoPipelining: true });
      connection.on('error', () => undefined); // connection errors surface as failed commands
      extraConnections.push(connection);
      // Another cluster is reached the way the API process does: its client, its default timeout.
      const client =
        options.elasticsearchUrl === undefined
          ? search.client
          : createSearchClient(options.elasticsearchUrl, {
              timeoutMs: loadConfig().ELASTICSEARCH_TIMEOUT_MS,
            });
      const app = await buildApp(
        {
          db: database.db,
          redis: connection,
          redisPrefix: redis.prefix,
          datasets: datasetsOver(client, options.searchCache),
          cursorSecret: CURSOR_SECRET,
          siteOrigin: SITE_ORIGIN,
          rateLimit: options.rateLimit ?? { max: 10_000, windowSeconds: 60 },
          accountMax: options.accountMax ?? TEST_ABUSE_LIMITS.accountMax,
          failedAuth: options.failedAuth ?? TEST_ABUSE_LIMITS.failedAuth,
          unknownKeyCacheSeconds: options.unknownKeyCacheSeconds ?? TEST_ABUSE_LIMITS.unknownKeyCacheSeconds,
          trustedProxies: options.trustedProxies ?? TEST_ABUSE_LIMITS.trustedProxies,
          clientIpv6PrefixBits: TEST_ABUSE_LIMITS.clientIpv6PrefixBits,
          ...(options.usageFlushIntervalMs === undefined
            ? {}
            : { usageFlushIntervalMs: options.usageFlushIntervalMs }),
          ...(options.exportLimits === undefined ? {} : { exportLimits: options.exportLimits }),
        },
        {
          logLevel: options.logLevel ?? false,
          ...(options.logStream ? { logStream: options.logStream } : {}),
        },
      );
      apps.push(app);
      return app;
    },
    index: (states) => indexPlaces(search.client, alias, states),
    createKey: async (email = 'owner@example.com', name = 'test key', mode = 'live') => {
      const account = await ensureAccount(database.db, email);
      const { key, secret } = await createApiKey(database.db, { accountId: account.id, name, mode });
      return { id: key.id, secret, accountId: account.id };
    },
    revokeKey: async (id) => {
      await revokeApiKey(database.db, createKeyVouches(redis.redis, redis.prefix), id);
    },
    close: async () => {
      await Promise.all(apps.map((app) => app.close()));
      for (const connection of extraConnections) connection.disconnect();
      await redis.cleanup();
      await search.cleanup();
      await Promise.all([database.drop(), sandbox.database.drop()]);
    },
  };
}

export type InjectOptions = { url: string; headers?: Record<string, string> };
export type Caller = (options: InjectOptions) => Promise<import('fastify').LightMyRequestResponse>;

const DOCUMENTED_ROUTES: Array<[RegExp, string]> = [
  [/^\/api\/v1\/key(?:\?|$)/, '/api/v1/key'],
  // The deprecated batch form of search answers what batchGet documents.
  [/^\/api\/v1\/doctors\?(?:[^#]*&)?ids=/, '/api/v1/doctors:batchGet'],
  [/^\/api\/v1\/doctors(?:\?|$)/, '/api/v1/doctors'],
  [/^\/api\/v1\/doctors:batchGet(?:\?|$)/, '/api/v1/doctors:batchGet'],
  [/^\/api\/v1\/doctors\/[^/?]*(?:\?|$)/, '/api/v1/doctors/{doctorId}'],
  [/^\/api\/v1\/changes(?:\?|$)/, '/api/v1/changes'],
  [/^\/api\/v1\/cities(?:\?|$)/, '/api/v1/cities'],
  [/^\/api\/v1\/facets\/[^/?]*(?:\?|$)/, '/api/v1/facets/{name}'],
];

/**
 * GET through app.inject(), checking every response of a documented route against the served
 * OpenAPI document (status, content type and body schema).
 */
export async function createCaller(app: FastifyInstance): Promise<Caller> {
  const validator = await createOpenApiValidator(app);
  return async ({ url, headers }) => {
    const response = await app.inject({ method: 'GET', url, ...(headers ? { headers } : {}) });
    const route = DOCUMENTED_ROUTES.find(([pattern]) => pattern.test(url));
    if (route !== undefined) validator.check(route[1], 'GET', response);
    return response;
  };
}

/** What most API specs start from: a harness, the validating caller, one key and these places indexed. */
export type KeyedApi = {
  harness: ApiHarness;
  /** GET through the validating caller, with whatever headers the spec gives (none: no key). */
  call: Caller;
  /** GET `url` with the key. */
  get: (url: string) => Promise<LightMyRequestResponse>;
  /** GET `url` with the key, expecting 200: the parsed body. */
  getOk: <Body>(url: string) => Promise<Body>;
  close: () => Promise<void>;
};

export async function createKeyedApi(label: string, places: PlaceState[]): Promise<KeyedApi> {
  const harness = await createApiHarness(label);
  // Every response is checked against /openapi.json by the caller.
  const call = await createCaller(await harness.newApp());
  const { secret } = await harness.createKey();
  await harness.index(places);
  const get = (url: string) => call({ url, headers: { 'x-api-key': secret } });
  return {
    harness,
    call,
    get,
    getOk: async <Body>(url: string) => {
      const response = await get(url);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Body>();
    },
    close: () => harness.close(),
  };
}
