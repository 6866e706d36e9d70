import { describe, expect, it } from 'vitest';
import { workerPoolProblem } from '../src/database-pool.js';

describe('the worker refuses a database pool smaller than its batches in flight need', () => {
  it('accepts the defaults and any pool of at least WORKER_CONCURRENCY + 2', () => {
    expect(workerPoolProblem({ WORKER_CONCURRENCY: 4, DATABASE_POOL_MAX: 10 })).toBeNull();
    expect(workerPoolProblem({ WORKER_CONCURRENCY: 8, DATABASE_POOL_MAX: 10 })).toBeNull();
    expect(workerPoolProblem({ WORKER_CONCURRENCY: 1, DATABASE_POOL_MAX: 3 })).toBeNull();
  });

  it('names both variables and the pool size that would do', () => {
    expect(workerPoolProblem({ WORKER_CONCURRENCY: 9, DATABASE_POOL_MAX: 10 })).toBe(
      'DATABASE_POOL_MAX (10) is too small for WORKER_CONCURRENCY (9): each batch in flight uses a database ' +
        'connection, and the sweeper and the operator side 2 more. Set DATABASE_POOL_MAX to at least 11, or ' +
        'lower WORKER_CONCURRENCY.',
    );
    expect(workerPoolProblem({ WORKER_CONCURRENCY: 64, DATABASE_POOL_MAX: 10 })).toMatch(/at least 66/);
  });
});
