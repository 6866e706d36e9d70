import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { KyselyPlugin } from 'kysely';
import { buildApp, type AppDependencies } from '@directory/api';
import { buildConsoleApp, type ConsoleDependencies } from '@directory/console';
import { LOOSE_ACCOUNT_LIMITS, consoleMail } from './console-forms.js';
import type { Database } from '@directory/database';
import type { Datasets, Directory } from '@directory/search';
import { createApiKey, ensureAccount } from '@directory/keys';
import { buildMcpApp } from '@directory/mcp';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  SITE_ORIGIN,
  createTestDatabase,
  createTestRedis,
  createTestSandbox,
  createTestSearch,
  indexPlaces,
  testDataset,
  testDatasets,
  type TestDatabase,
  type TestRedis,
} from '@directory/testing';

export const CURSOR_SECRET = 'security-cursor-secret-0123456789-abcdef';
export const CONSOLE_SECRET = 'security-console-secret-0123456789-abcdef';

/** The abuse-resistance settings the security apps run with unless a spec overrides them. */
export type AbuseSettings = Pick<
  AppDependencies,
  | 'rateLimit'
  | 'accountMax'
  | 'failedAuth'
  | 'unknownKeyCacheSeconds'
  | 'trustedProxies'
  | 'clientIpv6PrefixBits'
>;

const DEFAULT_SETTINGS: AbuseSettings = {
  rateLimit: { max: 100_000, windowSeconds: 60 },
  accountMax: 1_000_000,
  failedAuth: { max: 1_000_000, windowSeconds: 60, refusalDelayMs: 0 },
  unknownKeyCacheSeconds: 60,
  trustedProxies: [],
  clientIpv6PrefixBits: 64,
};

export type SecurityHarness = {
  database: TestDatabase;
  redis: TestRedis;
  /** Every log line of every app the harness built (secrets must never appear in one). */
  logs: string[];
  /** Statements the apps sent to PostgreSQL (the store instrumented with a counting plugin). */
  queryCount: () => number;
  /** Searches and fetches the apps asked of the directory (each one a real Elasticsearch query). */
  directoryCalls: () => number;
  servedGermanIds: string[];
  api: (settings?: Partial<AbuseSettings> & { siteOrigin?: string }) => Promise<FastifyInstance>;
  mcp: (settings?: Partial<AbuseSettings>) => Promise<FastifyInstance>;
  console: (overrides?: Partial<ConsoleDependencies>) => Promise<FastifyInstance>;
  /** Listens on an ephemeral loopback port; returns the base URL. */
  listen: (app: FastifyInstance) => Promise<string>;
  createKey: (email?: string) => Promise<{ id: string; secret: string; accountId: string }>;
  close: () => Promise<void>;
};

/** Real PostgreSQL, Redis and Elasticsearch, isolated per spec file, with the shared dataset indexed. */
export async function createSecurityHarness(label: string): Promise<SecurityHarness> {
  const database = await createTestDatabase(label);
  const redis = createTestRedis(label);
  const search = createTestSearch(label);
  const alias = `${search.prefix}_doctors`;
  await ensureDoctorsIndex(search.client, alias);
  const { states, servedGermanIds } = testDataset();
  await indexPlaces(search.client, alias, states);
  const sandbox = await createTestSandbox(label, search.client, alias);

  let queries = 0;
  const counting: KyselyPlugin = {
    transformQuery: (args) => {
      queries += 1;
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  const db: Database = database.db.withPlugin(counting);
  const logs: string[] = [];
  const logOptions = { logLevel: 'info', logStream: { write: (line: string) => void logs.push(line) } };
  const apps: FastifyInstance[] = [];
  const connections: Redis[] = [];
  const connection = () => {
    const created = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    connections.push(created);
    return created;
  };
  let directoryCalls = 0;
  const counted = (real: Directory): Directory => {
    return {
      searchDoctors: (params, requestTime) => (
        (directoryCalls += 1),
        real.searchDoctors(params, requestTime)
      ),
      getDoctor: (doctorId, shape) => ((directoryCalls += 1), real.getDoctor(doctorId, shape)),
      getDoctors: (entries, shape) => ((directoryCalls += 1), real.getDoctors(entries, shape)),
      listCities: (params) => ((directoryCalls += 1), real.listCities(params)),
      listSpecialties: (params) => ((directoryCalls += 1), real.listSpecialties(params)),
      listDatasets: (params, asOf) => ((directoryCalls += 1), real.listDatasets(params, asOf)),
      suggest: (params) => ((directoryCalls += 1), real.suggest(params)),
      listFacetValues: (params, requestTime) => (
        (directoryCalls += 1),
        real.listFacetValues(params, requestTime)
      ),
      searchVersionedRecords: (request, requestTime) => (
        (directoryCalls += 1),
        real.searchVersionedRecords(request, requestTime)
      ),
      getVersionedRecords: (placeIds) => ((directoryCalls += 1), real.getVersionedRecords(placeIds)),
    };
  };
  const datasets = (siteOrigin = SITE_ORIGIN): Datasets => {
    const real = testDatasets({
      client: search.client,
      live: { alias, db },
      sandbox,
      cursorSecret: CURSOR_SECRET,
      siteOrigin,
    });
    return {
      live: { ...real.live, directory: counted(real.live.directory) },
      test: { ...real.test, directory: counted(real.test.directory) },
    };
  };
  const keyedAccess = (settings: Partial<AbuseSettings>) => ({
    db,
    redis: connection(),
    redisPrefix: redis.prefix,
    ...DEFAULT_SETTINGS,
    ...settings,
  });
  const track = (app: FastifyInstance) => {
    apps.push(app);
    return app;
  };

  return {
    database,
    redis,
    logs,
    queryCount: () => queries,
    directoryCalls: () => directoryCalls,
    servedGermanIds,
    api: async ({ siteOrigin, ...settings } = {}) =>
      track(
        await buildApp(
          { ...keyedAccess(settings), datasets: datasets(siteOrigin), cursorSecret: CURSOR_SECRET },
          logOptions,
        ),
      ),
    mcp: async (settings = {}) =>
      track(
        await buildMcpApp(
          { ...keyedAccess(settings), datasets: datasets(), allowedOrigins: [], allowedHosts: [] },
          logOptions,
        ),
      ),
    console: async (overrides = {}) => {
      const mail = await consoleMail();
      const app = track(
        await buildConsoleApp(
          {
            db,
            redis: connection(),
            redisPrefix: redis.prefix,
            secret: CONSOLE_SECRET,
            sessionTtlSeconds: 3600,
            login: { maxFailures: 5, maxPerAccount: 50, maxPerAddress: 100, windowSeconds: 60 },
            signUp: { max: 1_000, windowSeconds: 60 },
            trustedProxies: [],
            clientIpv6PrefixBits: 64,
            keyPolicy: { max: 120, windowSeconds: 60 },
            mail: mail.mail,
            accountLimits: LOOSE_ACCOUNT_LIMITS,
            ...overrides,
          },
          logOptions,
        ),
      );
      return app;
    },
    listen: async (app) => {
      await app.listen({ host: '127.0.0.1', port: 0 });
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    },
    createKey: async (email = 'security@example.com') => {
      const account = await ensureAccount(database.db, email);
      const { key, secret } = await createApiKey(database.db, { accountId: account.id, name: 'security' });
      return { id: key.id, secret, accountId: account.id };
    },
    close: async () => {
      await Promise.all(apps.map((app) => app.close()));
      for (const created of connections) created.disconnect();
      await redis.cleanup();
      await search.cleanup();
      await Promise.all([database.drop(), sandbox.database.drop()]);
    },
  };
}

/** The `index`th address of the /64 `network` (four groups), spread over its 64 host bits. */
export function addressInNetwork(network: string, index: number): string {
  const group = (value: number) => (value & 0xffff).toString(16);
  return `${network}:${group(index * 40_503 + 1)}:${group(index * 7_919)}:${group(~index)}:${group(index + 1)}`;
}

/**
 * Secrets, and internal things no response body or log line may ever contain. `documentation` bodies
 * (the OpenAPI document) may name fields; they are checked for secrets only.
 */
export function leaksIn(
  text: string,
  secrets: readonly string[],
  kind: 'data' | 'documentation' = 'data',
): string[] {
  const found = secrets.filter((secret) => secret !== '' && text.includes(secret));
  if (kind === 'documentation') return found;
  for (const pattern of INTERNAL_PATTERNS) if (pattern.test(text)) found.push(pattern.source);
  return found;
}

const INTERNAL_PATTERNS = [
  // Search-document fields outside the public record's allowlist.
  /"(?:sortName|searchText|served|placeId|citySlug|profileSlug)"/,
  /secret_hash|password_hash|passwordHash|secretHash/,
  /"stack"|\n[ \t]+at .+:\d+:\d+/,
  /_source|index_not_found|search_phase_execution|ECONNREFUSED|kysely|pg_catalog/i,
];
