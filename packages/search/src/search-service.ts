import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import pino from 'pino';
import type { Config } from '@directory/config';
import type { Datasets } from './datasets.js';
import { serveUntilSignal, type LogOptions } from '@directory/http-server';
import type { KeyedAccessOptions } from '@directory/keyed-access';
import { postgresCheck, redisCheck, startProcessOperations, startTracing } from '@directory/observability';
import { elasticsearchCheck } from '@directory/search-index';
import { registerSearchCacheMetrics } from './search-cache-metrics.js';
import { openSearchStores, type SearchStores } from './search-stores.js';

/** What a search-serving app is built on: keyed access (auth + quota) and the dataset of each key mode. */
export type SearchServiceDependencies = KeyedAccessOptions & { datasets: Datasets };

/** The app's dependencies from the configuration and the process's stores (and its metrics registry). */
export function searchServiceDependencies(
  config: Config,
  stores: SearchStores,
  metrics: Registry,
): SearchServiceDependencies {
  return {
    db: stores.db,
    keyDb: stores.keyDb,
    redis: stores.redis,
    redisPrefix: config.REDIS_PREFIX,
    datasets: { live: { directory: stores.directory, db: stores.db }, test: stores.sandbox },
    rateLimit: { max: config.RATE_LIMIT_MAX, windowSeconds: config.RATE_LIMIT_WINDOW_S },
    accountMax: config.ACCOUNT_RATE_LIMIT_MAX,
    failedAuth: {
      max: config.AUTH_FAILURES_MAX,
      windowSeconds: config.AUTH_FAILURES_WINDOW_S,
      refusalDelayMs: config.AUTH_FAILURES_REFUSAL_DELAY_MS,
    },
    unknownKeyCacheSeconds: config.UNKNOWN_KEY_CACHE_S,
    usageFlushIntervalMs: config.KEY_USAGE_FLUSH_INTERVAL_S * 1000,
    trustedProxies: config.TRUSTED_PROXIES,
    clientIpv6PrefixBits: config.CLIENT_IPV6_PREFIX_BITS,
    metrics,
  };
}

/** Where a search-serving process listens: its public port, and its operator listener's (0 = none). */
export type ServicePorts = { service: string; port: number; opsPort: number };

const LOG_BATCH_BYTES = 64 * 1024;
// What one write may carry (sonic-boom's default, 16 KB, must stay above the batch size).
const LOG_MAX_WRITE_BYTES = 256 * 1024;
const LOG_FLUSH_INTERVAL_MS = 250;

/**
 * Runs a search-serving process (the API, the MCP server): opens its stores, starts its operator
 * listener (metrics, probes), builds the app on them, and serves until SIGTERM/SIGINT. Resolves with the
 * app once it listens.
 */
export async function runSearchService(
  config: Config,
  ports: ServicePorts,
  build: (deps: SearchServiceDependencies, logOptions: LogOptions) => Promise<FastifyInstance>,
): Promise<FastifyInstance> {
  await startTracing(ports.service); // first: the stores and the app are instrumented as they are built
  const stores = openSearchStores(config);
  const { db, redis, search, searchCache, close } = stores;
  const operations = await startProcessOperations({
    service: ports.service,
    host: config.OPS_HOST,
    port: ports.opsPort,
    checks: [postgresCheck(db), redisCheck(redis), elasticsearchCheck(search, config.ELASTICSEARCH_INDEX)],
    readinessTimeoutMs: config.READINESS_TIMEOUT_MS,
  });
  if (searchCache) registerSearchCacheMetrics(operations.registry, searchCache);
  // Asynchronous, batched log writes: one access-log line per request written on its own costs a system call
  // each (a share of the CPU under load measured by `npm run bench:api`, docs/benchmarks.md); lines are
  // written out once 64 KB are waiting, at the latest every 250 ms, and at exit (pino flushes the buffer on
  // the process's exit), so under load the timer decides and a crash loses at most a quarter second of lines.
  const logDestination = pino.destination({
    dest: 1,
    sync: false,
    minLength: LOG_BATCH_BYTES,
    maxWrite: LOG_MAX_WRITE_BYTES,
    periodicFlush: LOG_FLUSH_INTERVAL_MS,
  });
  const app = await build(searchServiceDependencies(config, stores, operations.registry), {
    logLevel: config.LOG_LEVEL,
    logStream: logDestination,
    httpMetrics: operations.httpMetrics,
  });
  redis.on('error', (error: Error) => app.log.warn({ err: error }, 'redis connection error'));
  await serveUntilSignal(app, {
    host: config.HOST,
    port: ports.port,
    onClose: async () => {
      await operations.close();
      await close();
    },
    drainMs: config.SHUTDOWN_DRAIN_MS,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    flushLogs: () => logDestination.flushSync(),
  });
  // "Server listening" is what supervisors and scripts wait for: out now, not with the next batch.
  logDestination.flush();
  return app;
}
