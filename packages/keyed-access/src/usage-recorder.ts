import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { RedisClient } from '@directory/config';
import type { Database } from '@directory/database';
import { nextUsageDayStart, usageDay } from '@directory/domain';
import { addUsageBatch, type KeyDayCount } from '@directory/keys';

/**
 * Per-key usage and last use, with no I/O on the request path (docs/operations.md "Key usage"):
 *
 * 1. Each request adds to an in-process tally (a map increment).
 * 2. Every flush interval the process adds its tally to one Redis hash shared by every API and MCP
 *    process (one script call: HINCRBY for counts, a maximum for last use).
 * 3. At most once per interval across all processes (a Redis flag with that lifetime), one of them
 *    renames the hash into a batch and adds the batch to PostgreSQL, exactly once (the batch id is
 *    recorded in the same transaction); the batch leaves Redis after the commit. A batch left behind by
 *    a crash is picked up by the next flush of any process.
 *
 * A crashed process loses at most its tally of one interval; nothing in Redis is lost with it.
 */
export type UsageRecorder = {
  /** Counts one authenticated request of `keyId` at `at` (epoch ms); `limited`: it was answered 429. */
  record: (keyId: string, at: number, limited: boolean) => void;
  /** Tally → Redis, then (when due) Redis → PostgreSQL. */
  flush: () => Promise<void>;
};

export type UsageRecorderOptions = {
  db: Database;
  redis: RedisClient;
  /** Redis key prefix (config REDIS_PREFIX). */
  prefix: string;
  flushIntervalMs: number;
};

// Fields of the shared hash: `r|<key>|<day>` requests, `l|<key>|<day>` requests answered 429, `u|<key>`
// last use (epoch ms).
const ADD_TALLY = `
for index = 1, #ARGV, 2 do
  local field, value = ARGV[index], tonumber(ARGV[index + 1])
  if string.sub(field, 1, 2) == 'u|' then
    local seen = tonumber(redis.call('HGET', KEYS[1], field) or '0')
    if value > seen then redis.call('HSET', KEYS[1], field, value) end
  else
    redis.call('HINCRBY', KEYS[1], field, value)
  end
end
return 1`;

// Turns the shared hash into a batch, at most once per interval across all processes.
const TAKE_BATCH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[1]) then return 0 end
redis.call('RENAME', KEYS[1], KEYS[4])
redis.call('SADD', KEYS[3], KEYS[4])
return 1`;

/**
 * The shared hash, the flag, the set of batches and every batch share one hash tag, so TAKE_BATCH and
 * the MULTI that removes a batch touch one cluster slot.
 */
export function usageRedisKeys(prefix: string): {
  pending: string;
  due: string;
  batches: string;
  batch: (id: string) => string;
} {
  const tagged = `${prefix}:{key-usage}`;
  return {
    pending: `${tagged}:pending`,
    due: `${tagged}:drained-recently`,
    batches: `${tagged}:batches`,
    batch: (id) => `${tagged}:batch:${id}`,
  };
}

export function createUsageRecorder(options: UsageRecorderOptions): UsageRecorder {
  const keys = usageRedisKeys(options.prefix);
  let tally = new Map<string, number>();
  // The UTC day of the last request and its bounds, so most requests skip formatting a date.
  let day = '';
  let dayStarts = 0;
  let dayEnds = 0;

  const add = (field: string, count: number, combine: (a: number, b: number) => number): void => {
    const seen = tally.get(field);
    tally.set(field, seen === undefined ? count : combine(seen, count));
  };
  const sum = (a: number, b: number): number => a + b;

  const toRedis = async (): Promise<void> => {
    if (tally.size === 0) return;
    const taken = tally;
    tally = new Map();
    const args: string[] = [];
    for (const [field, value] of taken) args.push(field, String(value));
    try {
      await options.redis.eval(ADD_TALLY, 1, keys.pending, ...args);
    } catch (error) {
      // Kept for the next flush (the tally is bounded by keys × days, not by requests).
      for (const [field, value] of taken) add(field, value, field.startsWith('u|') ? Math.max : sum);
      throw error;
    }
  };

  const toDatabase = async (): Promise<void> => {
    const batchKey = keys.batch(randomUUID());
    await options.redis.eval(
      TAKE_BATCH,
      4,
      keys.pending,
      keys.due,
      keys.batches,
      batchKey,
      String(options.flushIntervalMs),
    );
    // Every batch waiting, including one a crashed process took and never finished.
    for (const waiting of await options.redis.smembers(keys.batches)) {
      const fields = await options.redis.hgetall(waiting);
      if (Object.keys(fields).length > 0) {
        await addUsageBatch(options.db, { id: waiting, ...parseBatch(fields) });
      }
      await options.redis.multi().del(waiting).srem(keys.batches, waiting).exec();
    }
  };

  return {
    record: (keyId, at, limited) => {
      if (at >= dayEnds || at < dayStarts) {
        day = usageDay(at);
        dayEnds = nextUsageDayStart(at);
        dayStarts = dayEnds - 86_400_000;
      }
      add(`r|${keyId}|${day}`, 1, sum);
      if (limited) add(`l|${keyId}|${day}`, 1, sum);
      add(`u|${keyId}`, at, Math.max);
    },
    flush: async () => {
      await toRedis();
      await toDatabase();
    },
  };
}

/** The shared hash's fields back as counts per key and day, and last uses. */
export function parseBatch(fields: Record<string, string>): {
  counts: KeyDayCount[];
  lastUsed: Array<{ keyId: string; at: Date }>;
} {
  const counts = new Map<string, KeyDayCount>();
  const lastUsed: Array<{ keyId: string; at: Date }> = [];
  for (const [field, value] of Object.entries(fields)) {
    const [kind, keyId, day] = field.split('|');
    if (keyId === undefined) continue;
    if (kind === 'u') {
      lastUsed.push({ keyId, at: new Date(Number(value)) });
      continue;
    }
    if (day === undefined || (kind !== 'r' && kind !== 'l')) continue;
    const id = `${keyId}|${day}`;
    const count = counts.get(id) ?? { keyId, day, requests: 0, limited: 0 };
    if (kind === 'r') count.requests += Number(value);
    else count.limited += Number(value);
    counts.set(id, count);
  }
  return { counts: [...counts.values()], lastUsed };
}

/**
 * Records every authenticated request of `scope` (after the response: the status says whether it was
 * a 429) and flushes on a timer and when the app closes. Registered after authentication, so a request
 * without a working key counts for no one.
 */
export function registerUsageRecording(scope: FastifyInstance, options: UsageRecorderOptions): UsageRecorder {
  const recorder = createUsageRecorder(options);
  scope.addHook('onResponse', (request, reply, done) => {
    if (request.apiKey !== null) recorder.record(request.apiKey.id, Date.now(), reply.statusCode === 429);
    done();
  });
  let running: Promise<void> | null = null;
  const flush = (): Promise<void> => {
    running ??= recorder
      .flush()
      .catch((error: unknown) =>
        scope.log.warn({ err: error }, 'key usage flush failed; retried next interval'),
      )
      .finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void flush(), options.flushIntervalMs);
  timer.unref();
  scope.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
    await flush();
  });
  return recorder;
}
