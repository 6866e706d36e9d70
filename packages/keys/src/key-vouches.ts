import { isClusterClient, type RedisClient } from '@directory/config';

/**
 * Vouches let a request-serving process answer for a working key from its own memory, with one Redis
 * command instead of a PostgreSQL query per request, and still keep "revocation is effective on the
 * next request: no cache may outlive a revoke" (docs/security.md, Key checks). PostgreSQL stays the
 * only record of keys; Redis holds, per key, whether a remembered copy of its row may still be used:
 *
 * - a **vouch** (`key-vouch:<id>`) is set after a process read the key's row from PostgreSQL; it holds
 *   the row's version (what of the row a remembered copy answers with, `rowVersionOf`), and a process
 *   may use its remembered copy only while the vouch holds that same version: each use checks it;
 * - every write to a key's row (revoke, roll) **bars** the key before and again after the write (`bar`):
 *   its vouch is deleted and no new one can be set for `BAR_SECONDS`. A vouch must come with a ticket
 *   taken before the row was read and at most `MAX_READ_SECONDS` old (by Redis's clock), so a process
 *   that read the row before the write committed either vouches before the second bar (which deletes
 *   the vouch) or is refused by it. A write whose first bar could not be set is not made;
 * - remembered rows die with the **connection**: Redis may come back from a crash or a failover with an
 *   older state than it answered with (a snapshot or an append-only file missing its last writes, a
 *   replica that had not received them), holding a vouch from before a revoke and not the bar, or with
 *   nothing at all. Nothing kept in Redis tells such a state from the truth (a marker is restored with
 *   the rest), but every client's connection drops when its server goes away, so each process counts
 *   its connection's closes, its **generation**. A ticket names the generation it was taken in; a vouch
 *   is refused (`vouch` answers false) unless it and its ticket were answered in that same generation;
 *   a process remembers a row only once its vouch succeeded, and uses it only in that generation,
 *   checked before and after each use. After any reconnect every process reads its keys' rows from
 *   PostgreSQL again, which holds every revoke; a stale vouch left in Redis then matches no remembered
 *   row. So no bar needs to survive a restart or reach a replica before a revoke returns (no `WAIT`,
 *   which would also stall every revoke while a replica is down): a bar only has to hold while the
 *   server that took it keeps its connections. What this asks of a deployment: processes connect to
 *   Redis itself (or through Sentinel), not through a proxy that keeps their connections open while the
 *   server behind it changes.
 *
 * On a Redis Cluster each key's vouch, bar and counter share one hash tag (`{<key id>}`, so every script
 * here and the admission touch one slot), and the generation counts every event that may put another
 * server behind a slot: a node's connection closing (a crash, a partition), a node joining or leaving
 * the client's view of the cluster (a failover, a resharding), and the whole client closing. A manual
 * failover (`CLUSTER FAILOVER`) hands over a replica that has every write, and the slot-map refresh
 * that follows it adds the promoted node's role change ('+node'/'-node' when nodes move between roles
 * in ioredis's pool) or a connection drop; either way rows are read again.
 */
export type KeyVouches = {
  /** Whether a remembered copy of this key's row at `version` may be used (one Redis command). */
  isVouched: (keyId: string, version: string) => Promise<boolean>;
  /** Taken before reading a row, passed to `vouch`. */
  ticket: () => Promise<VouchTicket>;
  /**
   * Vouches for a row read after `ticket` was taken. True when the vouch is set and the connection is
   * still the ticket's: the row may then be remembered, for `ticket.generation`. False when barred,
   * late or across a reconnect.
   */
  vouch: (keyId: string, version: string, ticket: VouchTicket) => Promise<boolean>;
  /** Before and after a write to the key's row: no remembered copy is used again, nor vouched for a while. */
  bar: (keyId: string) => Promise<void>;
  /**
   * The connection's generation now (how many times it has closed): a remembered row is used only in
   * the generation it was vouched for in, over this same connection (the admission's too).
   */
  generation: () => number;
};

/** The connection's generation when a process was about to read a key's row, and Redis's time in seconds. */
export type VouchTicket = { generation: number; issuedAt: number };

/** How old a ticket may be when its vouch is set: far longer than a read (1 s statement timeout). */
export const MAX_READ_SECONDS = 60;
/** How long a write bars vouches: longer than any ticket lives, so no read from before the write vouches. */
export const BAR_SECONDS = 600;
/** A used key's vouch lasts this long, then its row is read again (a key unused for an hour is forgotten). */
export const VOUCH_SECONDS = 3_600;

// KEYS: bar, vouch. ARGV: the ticket's time, the row's version, the vouch's lifetime, the longest a
// ticket may live. A row read before a write committed was read with a ticket that is refused once
// MAX_READ_SECONDS old, and the bar after the commit lasts longer: its vouch is set before that bar
// (which deletes it) or refused by it.
const VOUCH_SCRIPT = `
  if tonumber(redis.call('TIME')[1]) - tonumber(ARGV[1]) > tonumber(ARGV[4]) then return 0 end
  if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
  redis.call('SET', KEYS[2], ARGV[2], 'EX', tonumber(ARGV[3]))
  return 1
`;

// KEYS: bar, vouch. ARGV: the bar's lifetime in seconds.
const BAR_SCRIPT = `
  redis.call('SET', KEYS[1], '1', 'EX', tonumber(ARGV[1]))
  redis.call('DEL', KEYS[2])
  return 1
`;

// One count per client, however many vouches objects share it (tests make one per call).
const closes = new WeakMap<RedisClient, { count: number }>();

/**
 * How many times `redis`'s connection has closed. ioredis emits 'close' for every drop of the
 * connection, before it reconnects (or gives up): a reply read while the count is the one taken before
 * the command was sent came over that same connection, from the server that held it. A cluster client
 * also counts each node's closes and every node added or removed (see KeyVouches).
 */
export function connectionGeneration(redis: RedisClient): () => number {
  let counter = closes.get(redis);
  if (counter === undefined) {
    const created = { count: 0 };
    const bump = () => (created.count += 1);
    redis.on('close', bump);
    if (isClusterClient(redis)) {
      const watch = (node: RedisClient) => node.on('close', bump);
      for (const node of redis.nodes('all')) watch(node);
      redis.on('+node', (node: RedisClient) => {
        bump();
        watch(node);
      });
      redis.on('-node', bump);
    }
    closes.set(redis, created);
    counter = created;
  }
  const current = counter;
  return () => current.count;
}

/**
 * Where a key's vouch lives: it holds the vouched row version; a remembered row may be used only while
 * this key holds its version (isVouched, or an admission script that checks it in the same command).
 */
export function vouchRedisKey(prefix: string, keyId: string): string {
  return `${prefix}:key-vouch:${keyHashTag(keyId)}`;
}

/** Where a write to a key's row bars its vouches (same slot as the vouch: one hash tag). */
export function barRedisKey(prefix: string, keyId: string): string {
  return `${prefix}:key-bar:${keyHashTag(keyId)}`;
}

/**
 * The hash tag every Redis key of one API key carries (vouch, bar, request counter), so the scripts
 * that touch several of them touch one cluster slot.
 */
export function keyHashTag(keyId: string): string {
  return `{${keyId}}`;
}

/**
 * The vouch and bar names before hash tags. A process of the previous release still checks these, so
 * a bar also sets them while such a process may be running (a rolling upgrade): its remembered rows
 * stop being used on a revoke all the same. Remove once no deployment runs the previous release.
 */
function legacyRedisKeys(prefix: string, keyId: string): { bar: string; vouch: string } {
  return { bar: `${prefix}:key-bar:${keyId}`, vouch: `${prefix}:key-vouch:${keyId}` };
}

/** Vouches kept under `prefix` (config REDIS_PREFIX: the same for the API, MCP, console and CLIs). */
export function createKeyVouches(redis: RedisClient, prefix: string): KeyVouches {
  const vouchKey = (keyId: string) => vouchRedisKey(prefix, keyId);
  const barKey = (keyId: string) => barRedisKey(prefix, keyId);
  const generation = connectionGeneration(redis);
  return {
    isVouched: async (keyId, version) => (await redis.get(vouchKey(keyId))) === version,
    ticket: async () => {
      // The generation before the command: a reconnect while it is answered makes the ticket unusable.
      const taken = generation();
      const [seconds] = await redis.time();
      return { generation: taken, issuedAt: Number(seconds) };
    },
    vouch: async (keyId, version, ticket) => {
      if (generation() !== ticket.generation) return false;
      const set = await redis.eval(
        VOUCH_SCRIPT,
        2,
        barKey(keyId),
        vouchKey(keyId),
        ticket.issuedAt,
        version,
        VOUCH_SECONDS,
        MAX_READ_SECONDS,
      );
      // Resent after a reconnect, the script may have run on a server that lost the bars: not a vouch.
      return set === 1 && generation() === ticket.generation;
    },
    bar: async (keyId) => {
      await redis.eval(BAR_SCRIPT, 2, barKey(keyId), vouchKey(keyId), BAR_SECONDS);
      // Two slots on a cluster, so two commands: the bar first, then no vouch can be set before the
      // delete (the previous release's vouch script checks the bar as this one does).
      const legacy = legacyRedisKeys(prefix, keyId);
      await redis.set(legacy.bar, '1', 'EX', BAR_SECONDS);
      await redis.del(legacy.vouch);
    },
    generation,
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
