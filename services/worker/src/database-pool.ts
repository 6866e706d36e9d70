import type { Config } from '@directory/config';

// Besides one connection per batch in flight: one for the sweeper (its claim on a page is one statement
// and no transaction spans the refold, so it never holds a second), one for the operator side's short
// queries (lag sample, reconciliation, freshness sample, readiness check), which take turns.
export const WORKER_SPARE_CONNECTIONS = 2;

/**
 * Why this configuration would starve the worker's database pool, or null when it does not. A pool
 * smaller than the batches in flight makes them wait for connections, and a wait longer than
 * DATABASE_CONNECT_TIMEOUT_MS fails the batch (and the readiness check, pausing the worker), so the
 * worker refuses to start rather than growing the pool past what the operator allowed.
 */
export function workerPoolProblem(
  config: Pick<Config, 'WORKER_CONCURRENCY' | 'DATABASE_POOL_MAX'>,
): string | null {
  const needed = config.WORKER_CONCURRENCY + WORKER_SPARE_CONNECTIONS;
  if (config.DATABASE_POOL_MAX >= needed) return null;
  return (
    `DATABASE_POOL_MAX (${config.DATABASE_POOL_MAX}) is too small for WORKER_CONCURRENCY ` +
    `(${config.WORKER_CONCURRENCY}): each batch in flight uses a database connection, and the sweeper and ` +
    `the operator side ${WORKER_SPARE_CONNECTIONS} more. Set DATABASE_POOL_MAX to at least ${needed}, or ` +
    `lower WORKER_CONCURRENCY.`
  );
}
