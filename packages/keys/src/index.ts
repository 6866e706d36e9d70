export {
  MAX_ACTIVE_KEYS_PER_ACCOUNT,
  MAX_KEY_NAME_LENGTH,
  ApiKeyLimitError,
  InvalidKeyNameError,
  KeyNotRollableError,
  checkKeyBySecret,
  createApiKey,
  findActiveKeyBySecret,
  findApiKey,
  listApiKeys,
  revokeApiKey,
  rollApiKey,
  type ActiveApiKey,
  type ApiKeyRecord,
  type KeyCheck,
  type RolledApiKey,
} from './api-key.repository.js';
export {
  AccountNotFoundError,
  ensureAccount,
  findAccountByEmail,
  findAccountById,
  findAccountCredentials,
  insertAccount,
  markEmailVerified,
  setPasswordHash,
  type AccountCredentials,
} from './account.repository.js';
export {
  eraseAccount,
  findAccountToErase,
  planAccountErasure,
  type AccountErasure,
} from './account-erasure.js';
export { addUsageBatch, usageOfKeys, type KeyDayCount, type UsageBatch } from './key-usage.repository.js';
export { UNVOUCHED, createKeyLookup, type Admit, type Authentication, type KeyLookup } from './key-lookup.js';
export { barRedisKey, createKeyVouches, keyHashTag, vouchRedisKey, type KeyVouches } from './key-vouches.js';
export { createServiceRedis, isRedisUnavailableError } from './service-redis.js';
export { createDatabaseClock, type DatabaseClock } from './database-clock.js';
