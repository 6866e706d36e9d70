/** What the transport retries, and how long it waits in between. Pure: the clock and the dice are passed in. */

/** Statuses worth another try: the key's window is used up (429), or a backing service is down (503). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 503;
}

// An HTTP date is at most 29 characters (IMF-fixdate); anything much longer is not one.
const MAX_RETRY_AFTER_LENGTH = 64;
const DELAY_SECONDS = /^\d{1,10}$/;

/**
 * `Retry-After` as milliseconds to wait from `nowMs`: whole seconds (`120`) or an HTTP date
 * (`Wed, 21 Oct 2026 07:28:00 GMT`; a date already past means now, 0). Undefined when absent or unreadable,
 * so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > MAX_RETRY_AFTER_LENGTH) return undefined;
  if (DELAY_SECONDS.test(trimmed)) return Number(trimmed) * 1000;
  // Only a date spelled with letters (a weekday or month name): Date.parse would also read "1.5" or "-3".
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

export type BackoffOptions = {
  /** The first retry's ceiling, in milliseconds. */
  baseDelayMs: number;
  /** No wait is longer than this, however many attempts came before. */
  maxDelayMs: number;
};

export const DEFAULT_BACKOFF: BackoffOptions = { baseDelayMs: 250, maxDelayMs: 8_000 };

/**
 * The wait before retry number `retry` (0 for the first) when the server did not say: exponential, capped,
 * with "equal jitter" (between half the ceiling and the ceiling) so that clients refused together do not
 * come back together, yet never retry at once. `random` returns a number in [0, 1).
 */
export function backoffDelay(retry: number, options: BackoffOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.min(retry, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
