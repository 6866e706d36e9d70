/**
 * What becomes of a delivery after an attempt (pure: the worker applies it).
 * - `delivered`: a 2xx answer.
 * - `disable`: the endpoint has failed for at least `disableAfterMs`: it is disabled and its pending
 *   deliveries (this one included) abandoned.
 * - `failed`: the last attempt of the schedule failed.
 * - `retry`: another attempt follows, after the schedule's delay.
 */
export type AttemptDecision = 'delivered' | 'disable' | 'failed' | 'retry';

export function isSuccessStatus(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

export function decideAfterAttempt(input: {
  statusCode: number | null;
  /** When the endpoint started failing (this failure's time when it had not been failing). */
  failingSince: Date;
  now: Date;
  disableAfterMs: number;
  lastAttempt: boolean;
}): AttemptDecision {
  if (isSuccessStatus(input.statusCode)) return 'delivered';
  if (input.now.getTime() - input.failingSince.getTime() >= input.disableAfterMs) return 'disable';
  return input.lastAttempt ? 'failed' : 'retry';
}

/** Why an endpoint was disabled, as the console shows it. */
export function disabledReason(failingSince: Date, lastError: string): string {
  return `failing since ${failingSince.toISOString()}: ${lastError}`;
}

/** What the delivery row keeps of an attempt's failure: a status, or the error, kept short. */
export function attemptError(statusCode: number | null, error: string | null): string {
  const text = error ?? (statusCode === null ? 'no answer' : `HTTP ${statusCode}`);
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}
