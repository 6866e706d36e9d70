export {
  MAX_ACTIVE_KEYS_PER_ACCOUNT,
  MAX_KEY_NAME_LENGTH,
  AccountNotFoundError,
  ApiKeyLimitError,
  InvalidKeyNameError,
  createApiKey,
  ensureAccount,
  findAccountByEmail,
  findActiveKeyBySecret,
  findApiKey,
  listApiKeys,
  revokeApiKey,
  type ActiveApiKey,
  type ApiKeyRecord,
  type CreatedApiKey,
} from './api-key.repository.js';
export { createKeyLookup, type KeyLookup } from './key-lookup.js';
