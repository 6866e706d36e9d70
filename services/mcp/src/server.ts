// `npm run mcp`: the MCP tool server. Config, logger, listen, graceful close; the app is in app.ts.
import pino from 'pino';
import { loadConfigOrExit } from '@directory/config';
import { openSearchStores, serveUntilSignal } from '@directory/http-kit';
import { buildMcpApp } from './app.js';
import { MCP_PATH } from './mcp.routes.js';

const config = loadConfigOrExit();
const { db, redis, directory, close } = openSearchStores(config);
const logDestination = pino.destination({ dest: 1, sync: false });

const app = await buildMcpApp(
  {
    db,
    redis,
    redisPrefix: config.REDIS_PREFIX,
    directory,
    rateLimit: { max: config.RATE_LIMIT_MAX, windowSeconds: config.RATE_LIMIT_WINDOW_S },
    allowedOrigins: config.MCP_ALLOWED_ORIGINS,
    allowedHosts: config.MCP_ALLOWED_HOSTS,
  },
  { logLevel: config.LOG_LEVEL, logStream: logDestination },
);

redis.on('error', (error: Error) => app.log.warn({ err: error }, 'redis connection error'));

await serveUntilSignal(app, {
  host: config.HOST,
  port: config.MCP_PORT,
  onClose: close,
  flushLogs: () => logDestination.flushSync(),
});
app.log.info(`MCP endpoint at http://${config.HOST}:${config.MCP_PORT}${MCP_PATH}`);
