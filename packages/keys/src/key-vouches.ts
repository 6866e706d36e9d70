import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Vouches let a request-serving process answer for a working key from its own memory, with one Redis
 * command instead of a PostgreSQL query per request, and still keep DESIGN's "revocation is effective
 * on the next request: no cache may outlive a revoke". PostgreSQL stays the only record of keys; Redis
 * holds, per key, whether a remembered copy of its row may still be used:
 *
 * - a **vouch** (`key-vouch:<id>`) is set after a process read the key's row from PostgreSQL; it holds
 *   the row's version (`rowVersion`: what of the row a remembered copy answers with), and a process may
 *   use its remembered copy only while the vouch holds that same version: each use checks it;
 * - every write to a key's row (revoke, roll) **bars** the key first: its vouch is deleted and no new
 *   one can be set for `BAR_SECONDS`, so a process that read the row just before the write cannot vouch
 *   for what it read. The bar outlives any read in flight (bounded by the statement timeout) and the
 *   write itself; a write whose bar could not be set is not made (its caller gets the error);
 * - Redis keeps nothing on disk here: a restart loses every vouch, and so every process asks PostgreSQL
 *   again. A read made before a restart must not vouch after it (the restart also lost the bars), so a
 *   vouch names the **epoch** (a random token Redis holds, new after each restart) read before the
 *   database was, and is refused when the epoch changed.
 */
export type KeyVouches = {
  /** Whether a remembered copy of this key's row at `version` may be used (one Redis command). */
  isVouched: (keyId: string, version: string) => Promise<boolean>;
  /** The current epoch, created when Redis holds none: read it before reading the row. */
  epoch: () => Promise<string>;
  /** Vouches for a row read after `epoch` was: refused (silently) when barred or the epoch changed. */
  vouch: (keyId: string, version: string, epoch: string) => Promise<void>;
  /** Before a write to the key's row: no remembered copy is used again, nor vouched for a while. */
  bar: (keyId: string) => Promise<void>;
};

/** Longer than any read of a key row in flight (statement timeouts are a minute) and than a write. */
export const BAR_SECONDS = 600;
/** A used key's vouch lasts this long, then its row is read again (a key unused for an hour is forgotten). */
export const VOUCH_SECONDS = 3_600;

// SET NX then GET: the epoch every process agrees on until Redis loses it.
const EPOCH_SCRIPT = `
  redis.call('SET', KEYS[1], ARGV[1], 'NX')
  return redis.call('GET', KEYS[1])
`;

// KEYS: epoch, bar, vouch. ARGV: the epoch read before the row, the row's version, the vouch's lifetime
// in seconds. Every row read after a bar ended shows the write the bar preceded, so a vouch set then
// never names a version older than one set before.
const VOUCH_SCRIPT = `
  if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
  if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
  redis.call('SET', KEYS[3], ARGV[2], 'EX', tonumber(ARGV[3]))
  return 1
`;

// KEYS: bar, vouch. ARGV: the bar's lifetime in seconds.
const BAR_SCRIPT = `
  redis.call('SET', KEYS[1], '1', 'EX', tonumber(ARGV[1]))
  redis.call('DEL', KEYS[2])
  return 1
`;

/** Vouches kept under `prefix` (config REDIS_PREFIX: the same for the API, MCP, console and CLIs). */
export function createKeyVouches(redis: Redis, prefix: string): KeyVouches {
  const epochKey = `${prefix}:key-vouch-epoch`;
  const vouchKey = (keyId: string) => `${prefix}:key-vouch:${keyId}`;
  const barKey = (keyId: string) => `${prefix}:key-bar:${keyId}`;
  return {
    isVouched: async (keyId, version) => (await redis.get(vouchKey(keyId))) === version,
    epoch: async () => String(await redis.eval(EPOCH_SCRIPT, 1, epochKey, randomUUID())),
    vouch: async (keyId, version, epoch) => {
      await redis.eval(
        VOUCH_SCRIPT,
        3,
        epochKey,
        barKey(keyId),
        vouchKey(keyId),
        epoch,
        version,
        VOUCH_SECONDS,
      );
    },
    bar: async (keyId) => {
      await redis.eval(BAR_SCRIPT, 2, barKey(keyId), vouchKey(keyId), BAR_SECONDS);
    },
  };
}
