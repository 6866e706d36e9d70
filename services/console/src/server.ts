// `npm run console`: the key console. Config, logger, listen, graceful close; the app is in app.ts.
import { Redis } from 'ioredis';
import { loadConfig } from '@directory/config';
import { createDatabase } from '@directory/database';
import { buildConsoleApp } from './app.js';

const config = loadConfig();
const db = createDatabase(config.DATABASE_URL);
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });

const app = await buildConsoleApp(
  {
    db,
    redis,
    redisPrefix: config.REDIS_PREFIX,
    secret: config.CONSOLE_SECRET,
    sessionTtlSeconds: config.CONSOLE_SESSION_TTL_S,
    login: { maxFailures: config.CONSOLE_LOGIN_MAX_FAILURES, windowSeconds: config.CONSOLE_LOGIN_WINDOW_S },
    trustProxy: config.CONSOLE_TRUST_PROXY,
  },
  { logLevel: config.LOG_LEVEL },
);

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'closing');
  try {
    await app.close(); // stops accepting, lets in-flight requests finish
    await Promise.allSettled([db.destroy(), redis.quit()]);
  } finally {
    process.exit(0);
  }
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void shutdown(signal));
}

await app.listen({ host: config.HOST, port: config.CONSOLE_PORT });
app.log.info(`console at http://${config.HOST}:${config.CONSOLE_PORT}/`);
