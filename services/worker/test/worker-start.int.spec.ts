import { describe, expect, it } from 'vitest';
import { freePort, startProcess } from '@directory/testing';

describe('npm run worker with a pool too small for its concurrency', () => {
  it('refuses to start, naming both variables, before connecting to anything', async () => {
    // Closed ports: were the check gone, the worker would fail to reach them, never touch shared servers.
    const closed = await freePort();
    const worker = startProcess('services/worker/src/main.ts', [], {
      WORKER_CONCURRENCY: '16',
      DATABASE_POOL_MAX: '10',
      WORKER_OPS_PORT: '0',
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/none`,
      REDIS_URL: `redis://127.0.0.1:${closed}`,
      ELASTICSEARCH_URL: `http://127.0.0.1:${closed}`,
    });
    expect(await worker.exited).toBe(2);
    expect(worker.output()).toMatch(
      /DATABASE_POOL_MAX \(10\) is too small for WORKER_CONCURRENCY \(16\).*at least 18/,
    );
  });
});
