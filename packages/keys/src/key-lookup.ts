import { LRUCache } from 'lru-cache';
import type { Database } from '@directory/database';
import { hashApiKey, isWellFormedApiKey } from '@directory/domain';
import { checkKeyByHash, checkKeyBySecret, type KeyCheck } from './api-key.repository.js';

export type KeyLookup = (secret: string) => Promise<KeyCheck>;

// Enough for a careless client fleet retrying dead keys; a flood of fresh random keys is the
// failed-authentication limit's job, not this cache's.
const MAX_UNKNOWN_KEYS = 10_000;

/**
 * `checkKeyBySecret` with a short per-process memory of secrets that matched no working key (unknown,
 * revoked or expired: none of them can work again), so a client retrying a dead key costs no database
 * query. Only those answers are kept (by SHA-256, never the secret): a working key is looked up every
 * time and its state computed at that instant, so a revocation takes effect on the next request and an
 * expiry or the end of a grace period at its exact time. A key created after its hash was remembered as
 * unknown would need its secret guessed first, which the key's 256 random bits rule out.
 */
export function createKeyLookup(db: Database, options: { unknownKeyCacheSeconds: number }): KeyLookup {
  if (options.unknownKeyCacheSeconds === 0) return (secret) => checkKeyBySecret(db, secret);
  const dead = new LRUCache<string, Exclude<KeyCheck, { kind: 'active' }>>({
    max: MAX_UNKNOWN_KEYS,
    ttl: options.unknownKeyCacheSeconds * 1000,
  });
  return async (secret) => {
    if (!isWellFormedApiKey(secret)) return { kind: 'refused' };
    const hash = hashApiKey(secret);
    const remembered = dead.get(hash);
    if (remembered !== undefined) return remembered;
    // The secret is checked and hashed once per request, here.
    const check = await checkKeyByHash(db, hash);
    if (check.kind !== 'active') dead.set(hash, check);
    return check;
  };
}
