import { LRUCache } from 'lru-cache';
import type { Database } from '@directory/database';
import { hashApiKey, isWellFormedApiKey } from '@directory/domain';
import {
  keyCheckAt,
  readKeyByHash,
  rowVersionOf,
  type ActiveApiKey,
  type KeyCheck,
  type StoredKey,
} from './api-key.repository.js';
import { createDatabaseClock, type DatabaseClock } from './database-clock.js';
import { VOUCH_SECONDS, type KeyVouches } from './key-vouches.js';

/**
 * What a secret authenticates as. A key that works is `admitted` with what `admit` made of it (the
 * caller's per-request work on the key: its quotas); `admit` confirms the key's vouch in the same step.
 */
export type KeyLookup = <T = undefined>(secret: string, admit?: Admit<T>) => Promise<Authentication<T>>;

export type Authentication<T> = { kind: 'active'; key: ActiveApiKey; admitted: T } | RefusedCheck;

type RefusedCheck = Exclude<KeyCheck, { kind: 'active' }>;

/**
 * Answers for a working key, in one Redis step with the confirmation of its vouch: `vouchedVersion` is
 * the version a remembered copy of the row was vouched at, and the step must check the vouch still
 * holds it (vouchRedisKey) and answer UNVOUCHED, having done nothing, when it does not; null means the
 * row was read and vouched for just now, with nothing to confirm. The lookup then reads the row again.
 * The step must go over the vouches' own Redis connection: its generation tells which server answered.
 */
export type Admit<T> = (key: ActiveApiKey, vouchedVersion: string | null) => Promise<T | typeof UNVOUCHED>;

export const UNVOUCHED = Symbol('unvouched');

// Enough for a careless client fleet retrying dead keys; a flood of fresh random keys is the
// failed-authentication limit's job, not this cache's.
const MAX_UNKNOWN_KEYS = 10_000;
// Working keys remembered per process (a row each, by SHA-256 of the secret, never the secret).
const MAX_WORKING_KEYS = 10_000;

/**
 * What a secret authenticates as, for a request-serving process, with the row read from PostgreSQL
 * only when this process has no usable copy:
 *
 * - a **working** key's row is remembered and used while Redis vouches for that version of it, checked
 *   at every request (by `admit`, in the same Redis command as the caller's quotas; key-vouches.ts):
 *   every revoke or roll bars the key before writing its row, so the next request in every process
 *   reads the new row, and the state (active, retiring, expired, revoked at the end of a grace period)
 *   is computed at each request's instant by the database's clock (database-clock.ts). A row is
 *   remembered only once its vouch succeeded, and is used only over the connection it was vouched on:
 *   after a reconnect every row is read again;
 * - secrets that matched no working key (unknown, revoked or expired: none of them can work again) are
 *   remembered for `unknownKeyCacheSeconds` (0: never), so a client retrying a dead key costs no query.
 *   A key created after its hash was remembered as unknown would need its secret guessed first, which
 *   the key's 256 random bits rule out.
 */
export function createKeyLookup(
  db: Database,
  vouches: KeyVouches,
  options: {
    unknownKeyCacheSeconds: number;
    /** The database's clock, which every check follows (database-clock.ts); fed by this lookup's reads. */
    clock?: DatabaseClock;
  },
): KeyLookup {
  const clock = options.clock ?? createDatabaseClock();
  const dead =
    options.unknownKeyCacheSeconds === 0
      ? null
      : new LRUCache<string, RefusedCheck>({
          max: MAX_UNKNOWN_KEYS,
          ttl: options.unknownKeyCacheSeconds * 1000,
        });
  // Each row with its version and the connection generation it was vouched for in (key-vouches.ts).
  const working = new LRUCache<string, { stored: StoredKey; version: string; generation: number }>({
    max: MAX_WORKING_KEYS,
    ttl: VOUCH_SECONDS * 1000,
  });
  // A key that does not work now never works again: remembered as such.
  const refuse = (hash: string, check: RefusedCheck): RefusedCheck => {
    working.delete(hash);
    dead?.set(hash, check);
    return check;
  };
  const confirmOnly: Admit<undefined> = async (key, version) =>
    version === null || (await vouches.isVouched(key.id, version)) ? undefined : UNVOUCHED;
  // A remembered row, if it is still of this connection: after a reconnect Redis may have come back
  // with an older state (key-vouches.ts), so every row is read again.
  const rememberedRow = (hash: string) => {
    const known = working.get(hash);
    if (known === undefined || known.generation === vouches.generation()) return known;
    working.delete(hash);
    return undefined;
  };
  return async <T>(secret: string, admit?: Admit<T>): Promise<Authentication<T>> => {
    if (!isWellFormedApiKey(secret)) return { kind: 'refused' };
    // The secret is checked and hashed once per request, here.
    const hash = hashApiKey(secret);
    const remembered = dead?.get(hash);
    if (remembered !== undefined) return remembered;
    // Without an `admit` of the caller's, only the vouch is confirmed (and `admitted` is undefined).
    const confirm = (admit ?? confirmOnly) as Admit<T>;
    const known = rememberedRow(hash);
    if (known !== undefined) {
      const check = keyCheckAt(known.stored, clock.now());
      // A remembered row that no longer works by the clock is read again below: a key is declared dead
      // (and remembered so) only from a fresh read, with a fresh reading of the database's clock.
      if (check.kind === 'active') {
        const admitted = await confirm(check.key, known.version);
        // The answer counts only if it came over the connection the row was vouched for in: a command
        // resent after a reconnect may have found a vouch a restored Redis brought back. (Such a
        // request is then counted twice at most: here, and again after reading the row.)
        if (admitted !== UNVOUCHED && vouches.generation() === known.generation) {
          return { kind: 'active', key: check.key, admitted };
        }
      }
    }
    // The ticket is taken before the row is read (key-vouches.ts).
    const ticket = await vouches.ticket();
    const sentAt = clock.hostNow();
    const read = await readKeyByHash(db, hash);
    if (read === null) return refuse(hash, { kind: 'refused' });
    clock.observe({ databaseTime: read.databaseTime, sentAt, answeredAt: clock.hostNow() });
    const { stored } = read;
    const current = keyCheckAt(stored, clock.now());
    if (current.kind !== 'active') return refuse(hash, current);
    const version = rowVersionOf(stored);
    // Remembered only once Redis vouches for it in this connection; refused (barred by a write under
    // way, or across a reconnect), the row just read still answers this request.
    if (await vouches.vouch(stored.key.id, version, ticket)) {
      working.set(hash, { stored, version, generation: ticket.generation });
    } else {
      working.delete(hash);
    }
    const admitted = await confirm(current.key, null);
    // Nothing to confirm after a fresh read: an admission that still finds no vouch fails closed.
    if (admitted === UNVOUCHED) return { kind: 'refused' };
    return { kind: 'active', key: current.key, admitted };
  };
}
