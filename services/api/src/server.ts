// `npm run api`: the public HTTP API. Config, logger, listen, graceful close; the app is in app.ts.
import { Redis } from 'ioredis';
import pino from 'pino';
import { loadConfig } from '@directory/config';
import { createDatabase } from '@directory/database';
import { createDirectory } from '@directory/directory';
import { createSearchClient } from '@directory/search-index';
import { buildApp } from './app.js';

const config = loadConfig();
const db = createDatabase(config.DATABASE_URL);
// Fail fast when Redis is gone: a rate-limit check must not hold a request for long.
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableAutoPipelining: true });
const search = createSearchClient(config.ELASTICSEARCH_URL, {
  timeoutMs: config.ELASTICSEARCH_TIMEOUT_MS,
  maxRetries: 1,
});

// Asynchronous log writes: lines written while a write is in flight are coalesced into one syscall.
const logDestination = pino.destination({ dest: 1, sync: false });

const app = await buildApp(
  {
    db,
    redis,
    redisPrefix: config.REDIS_PREFIX,
    directory: createDirectory({
      client: search,
      alias: config.ELASTICSEARCH_INDEX,
      siteOrigin: config.SITE_ORIGIN,
      cursorSecret: config.CURSOR_SECRET,
    }),
    rateLimit: { max: config.RATE_LIMIT_MAX, windowSeconds: config.RATE_LIMIT_WINDOW_S },
  },
  { logLevel: config.LOG_LEVEL, logStream: logDestination },
);

redis.on('error', (error: Error) => app.log.warn({ err: error }, 'redis connection error'));

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'closing');
  try {
    await app.close(); // stops accepting, lets in-flight requests finish
    await Promise.allSettled([db.destroy(), redis.quit(), search.close()]);
  } finally {
    logDestination.flushSync();
    process.exit(0);
  }
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void shutdown(signal));
}

await app.listen({ host: config.HOST, port: config.API_PORT });
app.log.info(`API docs at http://${config.HOST}:${config.API_PORT}/docs`);
