import type { Database } from '@directory/database';
import {
  KEY_USAGE_DAYS,
  usageWindow,
  type ApiKeyMode,
  type DailyUsage,
  type KeyExpiryChoice,
  type KeyGraceChoice,
} from '@directory/domain';
import {
  ApiKeyLimitError,
  InvalidKeyNameError,
  KeyNotRollableError,
  MAX_ACTIVE_KEYS_PER_ACCOUNT,
  MAX_KEY_NAME_LENGTH,
  createApiKey,
  findApiKey,
  listApiKeys,
  revokeApiKey,
  rollApiKey,
  usageOfKeys,
  type ApiKeyRecord,
  type KeyVouches,
} from '@directory/keys';

/**
 * The console's view of the one key store (packages/keys, shared with the API and the operator CLI):
 * everything here is scoped to the signed-in account, and the store's typed errors become results the
 * pages can show.
 */
export { MAX_ACTIVE_KEYS_PER_ACCOUNT, MAX_KEY_NAME_LENGTH };

export type CreateKeyResult =
  { kind: 'created'; key: ApiKeyRecord; secret: string } | { kind: 'limitReached' } | { kind: 'invalidName' };

export async function createKeyForAccount(
  db: Database,
  accountId: string,
  name: string,
  expiry: KeyExpiryChoice,
  mode: ApiKeyMode,
): Promise<CreateKeyResult> {
  try {
    const { key, secret } = await createApiKey(db, { accountId, name, expiry, mode });
    return { kind: 'created', key, secret };
  } catch (error) {
    if (error instanceof ApiKeyLimitError) return { kind: 'limitReached' };
    if (error instanceof InvalidKeyNameError) return { kind: 'invalidName' };
    throw error;
  }
}

/** A key with its daily usage over the last KEY_USAGE_DAYS days (oldest first, every day present). */
export type KeyWithUsage = { key: ApiKeyRecord; usage: DailyUsage[] };

/** The account's keys, newest first, each with its recent usage (one query for all of them). */
export async function listKeysOfAccount(db: Database, accountId: string, now: Date): Promise<KeyWithUsage[]> {
  const keys = await listApiKeys(db, accountId);
  const since = usageWindow([], now, KEY_USAGE_DAYS)[0]?.day ?? '';
  const counts = await usageOfKeys(
    db,
    keys.map((key) => key.id),
    since,
  );
  return keys.map((key) => ({
    key,
    usage: usageWindow(
      counts.filter((count) => count.keyId === key.id),
      now,
    ),
  }));
}

/** One of the account's own keys, or null (another account's key id is treated as unknown). */
export function findKeyOfAccount(
  db: Database,
  accountId: string,
  keyId: string,
): Promise<ApiKeyRecord | null> {
  return findApiKey(db, keyId, { accountId });
}

export type RevokeKeyResult = { kind: 'revoked'; key: ApiKeyRecord } | { kind: 'notFound' };

export async function revokeKeyOfAccount(
  db: Database,
  vouches: KeyVouches,
  accountId: string,
  keyId: string,
): Promise<RevokeKeyResult> {
  const revoked = await revokeApiKey(db, vouches, keyId, { accountId });
  return revoked === null ? { kind: 'notFound' } : { kind: 'revoked', key: revoked };
}

export type RollKeyResult =
  | { kind: 'rolled'; key: ApiKeyRecord; secret: string; previous: ApiKeyRecord }
  | { kind: 'limitReached' }
  | { kind: 'notRollable' }
  | { kind: 'notFound' };

export async function rollKeyOfAccount(
  db: Database,
  vouches: KeyVouches,
  accountId: string,
  keyId: string,
  grace: KeyGraceChoice,
): Promise<RollKeyResult> {
  try {
    const rolled = await rollApiKey(db, vouches, keyId, { grace, accountId });
    return rolled === null ? { kind: 'notFound' } : { kind: 'rolled', ...rolled };
  } catch (error) {
    if (error instanceof ApiKeyLimitError) return { kind: 'limitReached' };
    if (error instanceof KeyNotRollableError) return { kind: 'notRollable' };
    throw error;
  }
}
