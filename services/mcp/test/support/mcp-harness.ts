import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Client as SearchClient } from '@elastic/elasticsearch';
import { Redis } from 'ioredis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildApp } from '@directory/api';
import type { Datasets } from '@directory/search';
import { createApiKey, createKeyVouches, ensureAccount, revokeApiKey } from '@directory/keys';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  createTestDatabase,
  createTestRedis,
  createTestSandbox,
  createTestSearch,
  indexPlaces,
  storeServedPlaces,
  testDataset,
  testDatasets,
  type TestDatabase,
  type TestRedis,
  type TestSandbox,
} from '@directory/testing';
import type { ApiKeyMode, PlaceState } from '@directory/domain';
import { buildMcpApp, type McpAppDependencies } from '../../src/app.js';

export const CURSOR_SECRET = 'test-cursor-secret-0123456789-abcdefghij';

export type McpServerOptions = Partial<
  Pick<McpAppDependencies, 'rateLimit' | 'allowedOrigins' | 'allowedHosts'>
> & {
  /** Point the query service at another Elasticsearch node (e.g. a closed port). */
  elasticsearchUrl?: string;
  logStream?: { write: (line: string) => void };
};

export type McpHarness = {
  database: TestDatabase;
  redis: TestRedis;
  servedGermanIds: string[];
  /** Indexes records into the sandbox dataset (what `dk_test_` keys read). */
  indexSandbox: (states: PlaceState[]) => Promise<void>;
  /** Stores folded states in the live dataset as the worker does (store and index, merges included). */
  storeLive: (states: PlaceState[]) => Promise<void>;
  /** Starts an MCP server on an ephemeral port; returns its /mcp URL. */
  startMcp: (options?: McpServerOptions) => Promise<URL>;
  /** The HTTP API over the same database, Redis prefix and alias (for comparisons and shared quotas). */
  api: (options?: Pick<McpServerOptions, 'rateLimit'>) => Promise<FastifyInstance>;
  /** An SDK client connected to `url` with the key as a Bearer token. */
  connect: (url: URL, secret: string, headers?: Record<string, string>) => Promise<Client>;
  createKey: (email?: string, mode?: ApiKeyMode) => Promise<{ id: string; secret: string }>;
  revokeKey: (id: string) => Promise<void>;
  close: () => Promise<void>;
};

/** Real PostgreSQL, Redis and Elasticsearch, isolated per spec file, seeded with the shared dataset. */
export async function createMcpHarness(label: string): Promise<McpHarness> {
  const database = await createTestDatabase(label);
  const redis = createTestRedis(label);
  const search = createTestSearch(label);
  const alias = `${search.prefix}_doctors`;
  await ensureDoctorsIndex(search.client, alias);
  const { states, servedGermanIds } = testDataset();
  await indexPlaces(search.client, alias, states);
  const sandbox: TestSandbox = await createTestSandbox(label, search.client, alias);

  const apps: FastifyInstance[] = [];
  const clients: Client[] = [];
  const connections: Redis[] = [];
  const extraSearchClients: SearchClient[] = [];
  const redisConnection = () => {
    // Each app gets its own connection, like a separate process would.
    const connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    connections.push(connection);
    return connection;
  };
  const datasets = (elasticsearchUrl?: string): Datasets => {
    let client = search.client;
    if (elasticsearchUrl !== undefined) {
      client = new SearchClient({ node: elasticsearchUrl, requestTimeout: 1_000, maxRetries: 0 });
      extraSearchClients.push(client);
    }
    return testDatasets({ client, live: { alias, db: database.db }, sandbox, cursorSecret: CURSOR_SECRET });
  };
  const defaultLimit = { max: 10_000, windowSeconds: 60 };
  // Generous abuse-resistance settings: only the specs about them ever reach them.
  const abuseLimits = {
    accountMax: 100_000,
    failedAuth: { max: 1_000, windowSeconds: 60, refusalDelayMs: 0 },
    unknownKeyCacheSeconds: 60,
    trustedProxies: [],
    clientIpv6PrefixBits: 64,
  };

  return {
    database,
    redis,
    servedGermanIds,
    indexSandbox: (sandboxStates) => indexPlaces(search.client, sandbox.alias, sandboxStates),
    storeLive: (liveStates) =>
      storeServedPlaces({ db: database.db, client: search.client, alias }, liveStates),
    startMcp: async (options = {}) => {
      const app = await buildMcpApp(
        {
          db: database.db,
          redis: redisConnection(),
          redisPrefix: redis.prefix,
          datasets: datasets(options.elasticsearchUrl),
          rateLimit: options.rateLimit ?? defaultLimit,
          ...abuseLimits,
          allowedOrigins: options.allowedOrigins ?? [],
          allowedHosts: options.allowedHosts ?? [],
        },
        options.logStream ? { logLevel: 'info', logStream: options.logStream } : { logLevel: false },
      );
      apps.push(app);
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as AddressInfo;
      return new URL(`http://127.0.0.1:${port}/mcp`);
    },
    api: async (options = {}) => {
      const app = await buildApp(
        {
          db: database.db,
          redis: redisConnection(),
          redisPrefix: redis.prefix,
          datasets: datasets(),
          cursorSecret: CURSOR_SECRET,
          rateLimit: options.rateLimit ?? defaultLimit,
          ...abuseLimits,
        },
        { logLevel: false },
      );
      apps.push(app);
      return app;
    },
    connect: async (url, secret, headers = {}) => {
      const client = new Client({ name: 'mcp-test-client', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${secret}`, ...headers } },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    createKey: async (email = 'mcp@example.com', mode = 'live') => {
      const account = await ensureAccount(database.db, email);
      const { key, secret } = await createApiKey(database.db, {
        accountId: account.id,
        name: 'mcp test',
        mode,
      });
      return { id: key.id, secret };
    },
    revokeKey: async (id) => {
      await revokeApiKey(database.db, createKeyVouches(redis.redis, redis.prefix), id);
    },
    close: async () => {
      await Promise.allSettled(clients.map((client) => client.close()));
      await Promise.all(apps.map((app) => app.close()));
      for (const connection of connections) connection.disconnect();
      await Promise.all(extraSearchClients.map((client) => client.close()));
      await redis.cleanup();
      await search.cleanup();
      await Promise.all([database.drop(), sandbox.database.drop()]);
    },
  };
}

/** A raw JSON-RPC POST to /mcp, for what the SDK client hides (status codes, headers, problem bodies). */
export async function postMcp(
  url: URL,
  headers: Record<string, string>,
  body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
