import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@directory/config';
import type { ApiKeyMode } from '@directory/domain';

/**
 * An account's running exports, counted in Redis so every API process sees the same count: one sorted
 * set per account and key mode, one member per export, scored with when its lease expires (Redis's
 * clock, ms). An export renews its lease while it runs and removes it when it ends; the lease of a
 * process that died expires on its own, so a slot never leaks for longer than one lease.
 */
export type ExportLease = {
  /** Its member in the account's set: another process frees it with exportLeasesRedisKey and ZREM. */
  id: string;
  /** Extends the lease by its length; false when it had already expired (the slot may be another's). */
  renew: () => Promise<boolean>;
  /** Frees the slot; safe to call more than once. */
  release: () => Promise<void>;
};

export type LeaseAttempt = { ok: true; lease: ExportLease } | { ok: false; retryAfterMs: number };

export type ExportLeases = {
  /** Takes one of the account's `max` slots for this key mode, or says when the first one held expires. */
  acquire: (account: { accountId: string; mode: ApiKeyMode }, max: number) => Promise<LeaseAttempt>;
};

/** The sorted set of an account's export leases of one key mode (sandbox exports have their own). */
export function exportLeasesRedisKey(
  prefix: string,
  account: { accountId: string; mode: ApiKeyMode },
): string {
  const live = `${prefix}:export-leases:${account.accountId}`;
  return account.mode === 'live' ? live : `${live}:${account.mode}`;
}

// Redis's clock (ms), and the expired leases dropped: shared by both scripts. Every set lives as long
// as its newest lease, so a set whose exports all died goes away on its own.
const LEASE_COMMON = `
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  local function keepUntilNewest()
    local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
    if newest[2] then redis.call('PEXPIREAT', KEYS[1], newest[2]) end
  end
`;

/**
 * KEYS[1] the set; ARGV the lease id, its length (ms), the account's slots. Answers {1, 0} when taken,
 * {0, ms until the first lease held expires} when every slot is held.
 */
const ACQUIRE_SCRIPT = `${LEASE_COMMON}
  if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
    local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    return {0, tonumber(first[2]) - now}
  end
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  keepUntilNewest()
  return {1, 0}
`;

/** KEYS[1] the set; ARGV the lease id and its length (ms). Answers 1 when renewed, 0 when it had expired. */
const RENEW_SCRIPT = `${LEASE_COMMON}
  if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
  redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
  keepUntilNewest()
  return 1
`;

export function createExportLeases(options: {
  redis: RedisClient;
  prefix: string;
  leaseMs: number;
}): ExportLeases {
  const { redis, prefix, leaseMs } = options;
  return {
    acquire: async (account, max) => {
      const key = exportLeasesRedisKey(prefix, account);
      const id = randomUUID();
      const [taken, retryAfterMs] = (await redis.eval(ACQUIRE_SCRIPT, 1, key, id, leaseMs, max)) as [
        number,
        number,
      ];
      if (taken !== 1) return { ok: false, retryAfterMs };
      let released = false;
      return {
        ok: true,
        lease: {
          id,
          renew: async () => (await redis.eval(RENEW_SCRIPT, 1, key, id, leaseMs)) === 1,
          release: async () => {
            if (released) return;
            released = true;
            await redis.zrem(key, id);
          },
        },
      };
    },
  };
}
