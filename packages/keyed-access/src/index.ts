export { createAttemptLimiter } from './attempt-limiter.js';
export {
  API_KEY_HEADERS,
  registerKeyedAccess,
  requireApiKey,
  type KeyedAccessOptions,
} from './keyed-access.plugin.js';
export { keyedAccessProblemMappings } from './problem-mappings.js';
export { isRedisUnavailableError, rateLimitRedisNamespace } from './request-quotas.js';
export { createServiceRedis, openStores, type Stores } from './stores.js';
export { createUsageRecorder, usageRedisKeys, type UsageRecorder } from './usage-recorder.js';
