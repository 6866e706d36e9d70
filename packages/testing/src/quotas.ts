/**
 * Environment for a process under load tests and benchmarks: the per-key quota and the account ceiling
 * (abuse resistance) set far above any load they generate, so what they measure is never a 429.
 */
export const UNLIMITED_QUOTAS = {
  RATE_LIMIT_MAX: '1000000000',
  ACCOUNT_RATE_LIMIT_MAX: '1000000000',
} as const;
