import { createApiKey, ensureAccount } from '@directory/keys';
import { freePort, startProcess, UNLIMITED_QUOTAS, type RunningProcess } from '@directory/testing';
import type { BenchEnvironment } from './bench-environment.js';
import { parseCacheOutcomes, type CacheOutcomes } from './search-cache-outcomes.js';

export type RunningApi = {
  process: RunningProcess;
  /** The API's base URL, `/api/v1` included. */
  base: string;
  headers: Record<string, string>;
  opsPort: number;
};

/** The API's heap cap, as docker-compose.yml runs it (docs/operations.md, "Sizing one box"). */
export const API_NODE_OPTIONS = '--max-old-space-size=256';

/**
 * The API as its own process, as in production (logs at info included), with a key of its own; this
 * process is the client. `env` overrides the process's settings (bench:fhir turns the hot-query cache off).
 */
export async function startApi(
  environment: BenchEnvironment,
  env: Record<string, string> = {},
): Promise<RunningApi> {
  // An account of the run's own: a kept store (`bench:scale --store`) holds earlier runs' accounts, each
  // with the keys its run made, and an account may hold at most five active keys.
  const account = await ensureAccount(environment.db, `${environment.redisPrefix}@example.com`);
  const { secret } = await createApiKey(environment.db, { accountId: account.id, name: 'bench' });
  const port = await freePort();
  const opsPort = await freePort();
  const api = startProcess('services/api/src/server.ts', [], {
    API_OPS_PORT: String(opsPort),
    DATABASE_URL: environment.databaseUrl,
    REDIS_PREFIX: environment.redisPrefix,
    ELASTICSEARCH_INDEX: environment.alias,
    HOST: '127.0.0.1',
    API_PORT: String(port),
    ...UNLIMITED_QUOTAS,
    LOG_LEVEL: 'info',
    NODE_OPTIONS: API_NODE_OPTIONS,
    ...env,
  });
  try {
    await api.waitForOutput(/Server listening/);
  } catch (error) {
    await api.stop('SIGKILL');
    throw error;
  }
  return { process: api, base: `http://127.0.0.1:${port}/api/v1`, headers: { 'x-api-key': secret }, opsPort };
}

/** The API's hot-query cache counters as they stand (read from its operator port). */
export async function readSearchCacheOutcomes(api: Pick<RunningApi, 'opsPort'>): Promise<CacheOutcomes> {
  return parseCacheOutcomes(await (await fetch(`http://127.0.0.1:${api.opsPort}/metrics`)).text());
}
