import { LRUCache } from 'lru-cache';
import type { Database } from '@directory/database';
import { hashApiKey, isWellFormedApiKey } from '@directory/domain';
import {
  keyCheckAt,
  readKeyByHash,
  rowVersionOf,
  type KeyCheck,
  type StoredKey,
} from './api-key.repository.js';
import { VOUCH_SECONDS, type KeyVouches } from './key-vouches.js';

export type KeyLookup = (secret: string) => Promise<KeyCheck>;

// Enough for a careless client fleet retrying dead keys; a flood of fresh random keys is the
// failed-authentication limit's job, not this cache's.
const MAX_UNKNOWN_KEYS = 10_000;
// Working keys remembered per process (a row each, by SHA-256 of the secret, never the secret).
const MAX_WORKING_KEYS = 10_000;

/**
 * What a secret authenticates as, for a request-serving process, with the row read from PostgreSQL
 * only when this process has no usable copy:
 *
 * - a **working** key's row is remembered and used while Redis vouches for that version of it (one
 *   Redis command per request, see key-vouches.ts): every revoke or roll bars the key before writing
 *   its row, so the next request in every process reads the new row, and the state (active, retiring,
 *   expired, revoked at the end of a grace period) is computed at each request's instant;
 * - secrets that matched no working key (unknown, revoked or expired: none of them can work again) are
 *   remembered for `unknownKeyCacheSeconds` (0: never), so a client retrying a dead key costs no query.
 *   A key created after its hash was remembered as unknown would need its secret guessed first, which
 *   the key's 256 random bits rule out.
 */
export function createKeyLookup(
  db: Database,
  vouches: KeyVouches,
  options: { unknownKeyCacheSeconds: number },
): KeyLookup {
  const dead =
    options.unknownKeyCacheSeconds === 0
      ? null
      : new LRUCache<string, Exclude<KeyCheck, { kind: 'active' }>>({
          max: MAX_UNKNOWN_KEYS,
          ttl: options.unknownKeyCacheSeconds * 1000,
        });
  const working = new LRUCache<string, { stored: StoredKey; version: string }>({
    max: MAX_WORKING_KEYS,
    ttl: VOUCH_SECONDS * 1000,
  });
  const answer = (hash: string, stored: StoredKey | null): KeyCheck => {
    const check = keyCheckAt(stored, new Date());
    if (check.kind !== 'active') {
      working.delete(hash);
      dead?.set(hash, check);
    }
    return check;
  };
  return async (secret) => {
    if (!isWellFormedApiKey(secret)) return { kind: 'refused' };
    // The secret is checked and hashed once per request, here.
    const hash = hashApiKey(secret);
    const remembered = dead?.get(hash);
    if (remembered !== undefined) return remembered;
    const known = working.get(hash);
    if (known !== undefined && (await vouches.isVouched(known.stored.key.id, known.version)))
      return answer(hash, known.stored);
    // The ticket is taken before the row is read (key-vouches.ts).
    const ticket = await vouches.ticket();
    const stored = await readKeyByHash(db, hash);
    const check = answer(hash, stored);
    if (stored !== null && check.kind === 'active') {
      const version = rowVersionOf(stored);
      working.set(hash, { stored, version });
      await vouches.vouch(stored.key.id, version, ticket);
    }
    return check;
  };
}
