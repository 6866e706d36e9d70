export {
  RateLimitExceededError,
  isRedisUnavailableError,
  rateLimitRedisNamespace,
  registerRateLimit,
  type RateLimitOptions,
} from './rate-limit.plugin.js';
