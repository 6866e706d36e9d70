import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Vouches let a request-serving process answer for a working key from its own memory, with one Redis
 * command instead of a PostgreSQL query per request, and still keep DESIGN's "revocation is effective
 * on the next request: no cache may outlive a revoke". PostgreSQL stays the only record of keys; Redis
 * holds, per key, whether a remembered copy of its row may still be used:
 *
 * - a **vouch** (`key-vouch:<id>`) is set after a process read the key's row from PostgreSQL; it holds
 *   the row's version (what of the row a remembered copy answers with, `rowVersionOf`), and a process
 *   may use its remembered copy only while the vouch holds that same version: each use checks it;
 * - every write to a key's row (revoke, roll) **bars** the key before and again after the write (`bar`):
 *   its vouch is deleted and no new one can be set for `BAR_SECONDS`. A vouch must come with a ticket
 *   taken before the row was read and at most `MAX_READ_SECONDS` old (by Redis's clock), so a process
 *   that read the row before the write committed either vouches before the second bar (which deletes
 *   the vouch) or is refused by it. A write whose first bar could not be set is not made;
 * - Redis keeps nothing on disk here: a restart loses every vouch, and so every process asks PostgreSQL
 *   again. A read made before a restart must not vouch after it (the restart also lost the bars), so the
 *   ticket names the **epoch** (a random token Redis holds, new after each restart) and a vouch is
 *   refused when the epoch changed.
 */
export type KeyVouches = {
  /** Whether a remembered copy of this key's row at `version` may be used (one Redis command). */
  isVouched: (keyId: string, version: string) => Promise<boolean>;
  /** Taken before reading a row, passed to `vouch` (the epoch is created when Redis holds none). */
  ticket: () => Promise<VouchTicket>;
  /** Vouches for a row read after `ticket` was taken: refused (silently) when barred, late or stale. */
  vouch: (keyId: string, version: string, ticket: VouchTicket) => Promise<void>;
  /** Before and after a write to the key's row: no remembered copy is used again, nor vouched for a while. */
  bar: (keyId: string) => Promise<void>;
};

/** The epoch, and Redis's time in seconds, when a process was about to read a key's row. */
export type VouchTicket = { epoch: string; issuedAt: number };

/** How old a ticket may be when its vouch is set: far longer than a read (1 s statement timeout). */
export const MAX_READ_SECONDS = 60;
/** How long a write bars vouches: longer than any ticket lives, so no read from before the write vouches. */
export const BAR_SECONDS = 600;
/** A used key's vouch lasts this long, then its row is read again (a key unused for an hour is forgotten). */
export const VOUCH_SECONDS = 3_600;

// SET NX then GET: the epoch every process agrees on until Redis loses it; with Redis's clock.
const TICKET_SCRIPT = `
  redis.call('SET', KEYS[1], ARGV[1], 'NX')
  return { redis.call('GET', KEYS[1]), redis.call('TIME')[1] }
`;

// KEYS: epoch, bar, vouch. ARGV: the ticket's epoch and time, the row's version, the vouch's lifetime,
// the longest a ticket may live. A row read before a write committed was read with a ticket that is
// refused once MAX_READ_SECONDS old, and the bar after the commit lasts longer: its vouch is set before
// that bar (which deletes it) or refused by it.
const VOUCH_SCRIPT = `
  if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
  if tonumber(redis.call('TIME')[1]) - tonumber(ARGV[2]) > tonumber(ARGV[5]) then return 0 end
  if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
  redis.call('SET', KEYS[3], ARGV[3], 'EX', tonumber(ARGV[4]))
  return 1
`;

// KEYS: bar, vouch. ARGV: the bar's lifetime in seconds.
const BAR_SCRIPT = `
  redis.call('SET', KEYS[1], '1', 'EX', tonumber(ARGV[1]))
  redis.call('DEL', KEYS[2])
  return 1
`;

/**
 * Where a key's vouch lives: it holds the vouched row version; a remembered row may be used only while
 * this key holds its version (isVouched, or an admission script that checks it in the same command).
 */
export function vouchRedisKey(prefix: string, keyId: string): string {
  return `${prefix}:key-vouch:${keyId}`;
}

/** Vouches kept under `prefix` (config REDIS_PREFIX: the same for the API, MCP, console and CLIs). */
export function createKeyVouches(redis: Redis, prefix: string): KeyVouches {
  const epochKey = `${prefix}:key-vouch-epoch`;
  const vouchKey = (keyId: string) => vouchRedisKey(prefix, keyId);
  const barKey = (keyId: string) => `${prefix}:key-bar:${keyId}`;
  return {
    isVouched: async (keyId, version) => (await redis.get(vouchKey(keyId))) === version,
    ticket: async () => {
      const [epoch, issuedAt] = (await redis.eval(TICKET_SCRIPT, 1, epochKey, randomUUID())) as [
        string,
        string,
      ];
      return { epoch, issuedAt: Number(issuedAt) };
    },
    vouch: async (keyId, version, ticket) => {
      await redis.eval(
        VOUCH_SCRIPT,
        3,
        epochKey,
        barKey(keyId),
        vouchKey(keyId),
        ticket.epoch,
        ticket.issuedAt,
        version,
        VOUCH_SECONDS,
        MAX_READ_SECONDS,
      );
    },
    bar: async (keyId) => {
      await redis.eval(BAR_SCRIPT, 2, barKey(keyId), vouchKey(keyId), BAR_SECONDS);
    },
  };
}

/**
 * Runs a write to a key's row between two bars (see KeyVouches): without the first, the write is not
 * made; the second covers reads that began before the write committed, however long the write took.
 */
export async function barredWrite<T>(
  vouches: KeyVouches,
  keyId: string,
  write: () => Promise<T>,
): Promise<T> {
  await vouches.bar(keyId);
  const result = await write();
  await vouches.bar(keyId);
  return result;
}
