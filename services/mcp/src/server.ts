// `npm run mcp`: the MCP tool server. Config, logger, listen, graceful close; the app is in app.ts.
import { Redis } from 'ioredis';
import pino from 'pino';
import { loadConfig } from '@directory/config';
import { createDatabase } from '@directory/database';
import { createDirectory } from '@directory/directory';
import { createSearchClient } from '@directory/search-index';
import { buildMcpApp } from './app.js';
import { MCP_PATH } from './mcp.routes.js';

const config = loadConfig();
const db = createDatabase(config.DATABASE_URL);
// Fail fast when Redis is gone: a rate-limit check must not hold a request for long.
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableAutoPipelining: true });
const search = createSearchClient(config.ELASTICSEARCH_URL, {
  timeoutMs: config.ELASTICSEARCH_TIMEOUT_MS,
  maxRetries: 1,
});
const logDestination = pino.destination({ dest: 1, sync: false });

const app = await buildMcpApp(
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
    allowedOrigins: config.MCP_ALLOWED_ORIGINS,
    allowedHosts: config.MCP_ALLOWED_HOSTS,
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

await app.listen({ host: config.HOST, port: config.MCP_PORT });
app.log.info(`MCP endpoint at http://${config.HOST}:${config.MCP_PORT}${MCP_PATH}`);
