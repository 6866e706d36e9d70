import { problemFor, unavailableWhen, type ProblemMapping } from '@directory/http-server';
import { isRedisUnavailableError } from '@directory/keys';
import { TooManyAttemptsError } from './attempt-limiter.js';
import { RateLimitExceededError } from './request-quotas.js';

/** The key's own quota: a 429 problem (the limiter has already set RateLimit-* and Retry-After). */
const rateLimitExceeded: ProblemMapping = (error) =>
  error instanceof RateLimitExceededError
    ? {
        problem: problemFor(
          'rateLimited',
          `This API key has used its request quota for the current window; retry after ${error.retryAfterSeconds} seconds (Retry-After).`,
        ),
      }
    : undefined;

/**
 * The other throttles (an address's failed authentications, an account's ceiling): a 429 problem with
 * Retry-After. Not logged: the access line records the 429, and a flood must not double its log volume.
 */
const tooManyAttempts: ProblemMapping = (error) =>
  error instanceof TooManyAttemptsError
    ? {
        problem: problemFor('rateLimited', TOO_MANY_ATTEMPTS_DETAIL[error.reason](error.retryAfterSeconds)),
        headers: { 'retry-after': String(error.retryAfterSeconds) },
      }
    : undefined;

const TOO_MANY_ATTEMPTS_DETAIL: Record<TooManyAttemptsError['reason'], (seconds: number) => string> = {
  failedAuthentication: (seconds) =>
    `Too many requests with a missing, malformed, unknown or revoked API key came from this address; retry after ${seconds} seconds (Retry-After).`,
  accountCeiling: (seconds) =>
    `The account this API key belongs to has used its request ceiling across all its keys for the current window; retry after ${seconds} seconds (Retry-After).`,
};

/**
 * What keyed access throws, as problems: its 429s, and a Redis that does not answer as a 503 (the
 * limits fail closed rather than serve without a limit). Register them with installErrorHandling.
 */
export const keyedAccessProblemMappings: ReadonlyArray<ProblemMapping> = [
  rateLimitExceeded,
  tooManyAttempts,
  unavailableWhen(isRedisUnavailableError),
];
