// `npm run api`: the public HTTP API. Config, logger, listen, graceful close; the app is in app.ts.
import pino from 'pino';
import { loadConfigOrExit } from '@directory/config';
import { openSearchStores, serveUntilSignal } from '@directory/http-kit';
import { buildApp } from './app.js';

const config = loadConfigOrExit();
const { db, redis, directory, close } = openSearchStores(config);

// Asynchronous log writes: lines written while a write is in flight are coalesced into one syscall.
const logDestination = pino.destination({ dest: 1, sync: false });

const app = await buildApp(
  {
    db,
    redis,
    redisPrefix: config.REDIS_PREFIX,
    directory,
    rateLimit: { max: config.RATE_LIMIT_MAX, windowSeconds: config.RATE_LIMIT_WINDOW_S },
  },
  { logLevel: config.LOG_LEVEL, logStream: logDestination },
);

redis.on('error', (error: Error) => app.log.warn({ err: error }, 'redis connection error'));

await serveUntilSignal(app, {
  host: config.HOST,
  port: config.API_PORT,
  onClose: close,
  flushLogs: () => logDestination.flushSync(),
});
app.log.info(`API docs at http://${config.HOST}:${config.API_PORT}/docs`);
