import { LRUCache } from 'lru-cache';
import type { Database } from '@directory/database';
import { hashApiKey, isWellFormedApiKey } from '@directory/domain';
import { findActiveKeyByHash, findActiveKeyBySecret, type ActiveApiKey } from './api-key.repository.js';

export type KeyLookup = (secret: string) => Promise<ActiveApiKey | null>;

// Enough for a careless client fleet retrying dead keys; a flood of fresh random keys is the
// failed-authentication limit's job, not this cache's.
const MAX_UNKNOWN_KEYS = 10_000;

/**
 * `findActiveKeyBySecret` with a short per-process memory of secrets that matched no active key, so a
 * client retrying an unknown or revoked key costs no database query. Only negative answers are kept
 * (by SHA-256, never the secret): an active key is looked up every time, so a revocation still takes
 * effect on the next request. A key created after its hash was remembered as unknown would need its
 * secret guessed first, which the key's 256 random bits rule out.
 */
export function createKeyLookup(db: Database, options: { unknownKeyCacheSeconds: number }): KeyLookup {
  if (options.unknownKeyCacheSeconds === 0) return (secret) => findActiveKeyBySecret(db, secret);
  const unknown = new LRUCache<string, true>({
    max: MAX_UNKNOWN_KEYS,
    ttl: options.unknownKeyCacheSeconds * 1000,
  });
  return async (secret) => {
    if (!isWellFormedApiKey(secret)) return null;
    const hash = hashApiKey(secret);
    if (unknown.has(hash)) return null;
    // The secret is checked and hashed once per request, here.
    const key = await findActiveKeyByHash(db, hash);
    if (key === null) unknown.set(hash, true);
    return key;
  };
}
