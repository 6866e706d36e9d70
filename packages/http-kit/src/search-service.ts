import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from '@directory/config';
import type { Directory } from '@directory/directory';
import type { KeyedAccessOptions } from './auth.plugin.js';
import { openSearchStores } from './backends.js';
import { serveUntilSignal } from './serve.js';
import type { LogOptions } from './server-options.js';

/** What a search-serving app is built on: keyed access (auth + quota) and the directory. */
export type SearchServiceDependencies = KeyedAccessOptions & { directory: Directory };

/**
 * Runs a search-serving process (the API, the MCP server): opens its stores, builds the app on them,
 * and serves until SIGTERM/SIGINT. Resolves with the app once it listens.
 */
export async function runSearchService(
  config: Config,
  port: number,
  build: (deps: SearchServiceDependencies, logOptions: LogOptions) => Promise<FastifyInstance>,
): Promise<FastifyInstance> {
  const { db, redis, directory, close } = openSearchStores(config);
  // Asynchronous log writes: lines written while a write is in flight are coalesced into one syscall.
  const logDestination = pino.destination({ dest: 1, sync: false });
  const app = await build(
    {
      db,
      redis,
      redisPrefix: config.REDIS_PREFIX,
      directory,
      rateLimit: { max: config.RATE_LIMIT_MAX, windowSeconds: config.RATE_LIMIT_WINDOW_S },
      accountMax: config.ACCOUNT_RATE_LIMIT_MAX,
      failedAuth: {
        max: config.AUTH_FAILURES_MAX,
        windowSeconds: config.AUTH_FAILURES_WINDOW_S,
        refusalDelayMs: config.AUTH_FAILURES_REFUSAL_DELAY_MS,
      },
      unknownKeyCacheSeconds: config.UNKNOWN_KEY_CACHE_S,
      trustedProxies: config.TRUSTED_PROXIES,
    },
    { logLevel: config.LOG_LEVEL, logStream: logDestination },
  );
  redis.on('error', (error: Error) => app.log.warn({ err: error }, 'redis connection error'));
  await serveUntilSignal(app, {
    host: config.HOST,
    port,
    onClose: close,
    flushLogs: () => logDestination.flushSync(),
  });
  return app;
}
