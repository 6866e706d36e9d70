// `npm run status`: one screen for an operator; exits 1 when something needs attention (for cron).
import { setTimeout as sleep } from 'node:timers/promises';
import { createRedisClient, loadConfigOrExit, queuePrefix } from '@directory/config';
import { createDatabase } from '@directory/database';
import { createIngestQueue } from '@directory/ingest';
import { createSearchClient } from '@directory/search-index';
import { formatStatus, needsAttention } from './attention.js';
import { readStatus } from './status.service.js';

const config = loadConfigOrExit();
const timeoutMs = config.READINESS_TIMEOUT_MS * 2;
const db = createDatabase(config.DATABASE_URL);
// One attempt, no reconnect loop: a status command reports a dead Redis, it does not wait for it.
const redis = createRedisClient(config, 'probe', { timeoutMs });
redis.on('error', () => undefined);
// connect() resolves only once Redis answers its ready check: a paused Redis would hold it for ever.
await Promise.race([redis.connect(), sleep(timeoutMs)]).catch(() => undefined);
const queue = createIngestQueue({ connection: redis, prefix: queuePrefix(config) });
const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs, maxRetries: 0 });

let exitCode = 1;
try {
  const snapshot = await readStatus({
    db,
    redis,
    redisPrefix: config.REDIS_PREFIX,
    queue,
    search: { client, alias: config.ELASTICSEARCH_INDEX },
    timeoutMs,
    now: () => new Date(),
  });
  const attention = needsAttention(snapshot);
  process.stdout.write(formatStatus(snapshot, attention));
  exitCode = attention.length === 0 ? 0 : 1;
} finally {
  await Promise.allSettled([queue.close(), db.destroy(), client.close()]);
  redis.disconnect();
}
process.exit(exitCode);
