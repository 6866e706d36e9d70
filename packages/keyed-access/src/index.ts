export { createAttemptLimiter, type AttemptDecision } from './attempt-limiter.js';
export {
  API_KEY_HEADERS,
  registerKeyedAccess,
  requireApiKey,
  type KeyedAccessOptions,
} from './keyed-access.plugin.js';
export { keyedAccessProblemMappings } from './problem-mappings.js';
export { accountCounterRedisKey, rateLimitRedisKey } from './request-quotas.js';
export { chargeRequest, createAccountCharger, type AccountCharge, type Charge } from './request-quotas.js';
// The connection and its failures are the keys package's (its CLI uses them too); offered here as well.
export { createServiceRedis, isRedisUnavailableError } from '@directory/keys';
export { openStores, type Stores } from './stores.js';
export { createUsageRecorder, usageRedisKeys, type UsageRecorder } from './usage-recorder.js';
