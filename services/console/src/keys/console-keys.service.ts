import type { Database } from '@directory/database';
import {
  ApiKeyLimitError,
  InvalidKeyNameError,
  MAX_ACTIVE_KEYS_PER_ACCOUNT,
  MAX_KEY_NAME_LENGTH,
  createApiKey,
  findApiKey,
  listApiKeys,
  revokeApiKey,
  type ApiKeyRecord,
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
): Promise<CreateKeyResult> {
  try {
    const { key, secret } = await createApiKey(db, { accountId, name });
    return { kind: 'created', key, secret };
  } catch (error) {
    if (error instanceof ApiKeyLimitError) return { kind: 'limitReached' };
    if (error instanceof InvalidKeyNameError) return { kind: 'invalidName' };
    throw error;
  }
}

export function listKeysOfAccount(db: Database, accountId: string): Promise<ApiKeyRecord[]> {
  return listApiKeys(db, accountId);
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
  accountId: string,
  keyId: string,
): Promise<RevokeKeyResult> {
  const revoked = await revokeApiKey(db, keyId, { accountId });
  return revoked === null ? { kind: 'notFound' } : { kind: 'revoked', key: revoked };
}
