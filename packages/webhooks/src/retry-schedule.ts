/** A delivery's attempts: one, then one more per configured delay (WEBHOOK_RETRY_DELAYS_MS). */
export function attemptsAllowed(retryDelaysMs: ReadonlyArray<number>): number {
  return retryDelaysMs.length + 1;
}

/** The delay before retry number `attempt` (1 = the first retry); past the list, its last delay. */
export function retryDelay(attempt: number, retryDelaysMs: ReadonlyArray<number>): number {
  if (retryDelaysMs.length === 0) return 0;
  const index = Math.min(Math.max(attempt, 1), retryDelaysMs.length) - 1;
  return retryDelaysMs[index] ?? 0;
}
