export {
  RateLimitExceededError,
  isRedisUnavailableError,
  rateLimitRedisNamespace,
  registerRateLimit,
  type RateLimitOptions,
} from './rate-limit.plugin.js';
export {
  TooManyAttemptsError,
  createAttemptLimiter,
  type AttemptDecision,
  type AttemptLimiter,
  type AttemptLimiterOptions,
} from './attempt-limiter.js';
