import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisClient, loadConfig, type RedisClient } from '@directory/config';
import { startPrivateRedis, waitForConvergence, type PrivateRedis } from '@directory/testing';
import { sampleLines, startStorePipeline, type StorePipeline } from '../faults/store-pipeline.fixture.js';

/** The address each client of the server connected from (CLIENT LIST's `addr=`), but our own. */
async function clientAddresses(redis: RedisClient): Promise<string[]> {
  const list = String(await redis.client('LIST'));
  const self = String(await redis.client('ID'));
  return list
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith(`id=${self} `))
    .map((line) => /(?:^| )addr=(\S*)/.exec(line)?.[1] ?? '');
}

describe('Redis over a unix socket (REDIS_URL=unix:///…)', () => {
  let redis: PrivateRedis;
  let pipeline: StorePipeline;
  let operator: RedisClient;
  const lines = sampleLines(2_000, 71);

  beforeAll(async () => {
    redis = await startPrivateRedis();
    pipeline = await startStorePipeline('redis-socket', { REDIS_URL: redis.socketUrl });
    operator = createRedisClient(loadConfig({ REDIS_URL: redis.socketUrl }), 'service');
  });
  afterAll(async () => {
    operator.disconnect();
    await pipeline.cleanup();
    await redis.destroy();
  });

  it('ingests through a worker whose every connection is the socket, and the index converges', async () => {
    await pipeline.startWorker();
    const ingest = await pipeline.ingest(lines, ['--wait', '--timeout', '120']);
    // The producer is connected while it waits for its jobs: the worker's and its clients are listed.
    await ingest.waitForOutput(/processed \d+\/\d+ jobs/, 60_000);
    const addresses = await clientAddresses(operator);
    expect(addresses.length).toBeGreaterThanOrEqual(3);
    // Redis names a socket client by the socket's path, a TCP one by its IP and port.
    expect(addresses.filter((address) => !address.startsWith('/'))).toEqual([]);

    expect(await ingest.exited).toBe(0);
    await waitForConvergence(pipeline.convergenceInput(lines), 60_000);
  });
});
