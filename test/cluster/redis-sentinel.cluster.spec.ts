import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisClient, loadConfig, type RedisClient } from '@directory/config';
import { createKeyVouches, revokeApiKey, vouchRedisKey } from '@directory/keys';
import {
  startLoad,
  startPrivateRedisSentinel,
  startTcpProxy,
  waitForConvergence,
  type PrivateRedisSentinel,
} from '@directory/testing';
import { sampleLines, startStorePipeline, type StorePipeline } from '../faults/store-pipeline.fixture.js';
import {
  createNamedKey,
  searchRequest,
  startService,
  type RunningService,
} from '../faults/service-processes.fixture.js';
import {
  FAILOVER_PROCESS_ENV,
  firstAnswerOtherThan503,
  searchStatus,
  stageStaleVouch,
  stopLoadAfterFailover,
} from './redis-failover.fixture.js';

/** Each way, per chunk, between the processes and the sentinels. */
const SENTINEL_LINK_DELAY_MS = 250;

describe('Redis Sentinel: the primary killed during ingest and API load', () => {
  let sentinel: PrivateRedisSentinel;
  let pipeline: StorePipeline;
  let operator: RedisClient;
  let api: RunningService | undefined;
  // Undone in reverse order, whatever beforeAll got to.
  const cleanups: Array<() => unknown> = [];
  const lines = sampleLines(3_000, 61);

  beforeAll(async () => {
    sentinel = await startPrivateRedisSentinel();
    cleanups.push(() => sentinel.destroy());
    const topology = { REDIS_SENTINELS: sentinel.sentinels, REDIS_SENTINEL_MASTER: sentinel.master };
    // The processes reach the sentinels over slow links: a reconnect then spends most of its time asking
    // them for the primary, which is when the announcement of the new one lands (it once ended clients).
    const slowLinks = await Promise.all(
      sentinel.sentinels.split(',').map((address) => {
        const [host = '', port = ''] = address.split(':');
        return startTcpProxy({ host, port: Number(port) }, { delayMs: SENTINEL_LINK_DELAY_MS });
      }),
    );
    cleanups.push(() => Promise.all(slowLinks.map((link) => link.close())));
    pipeline = await startStorePipeline('redis-sentinel', {
      ...FAILOVER_PROCESS_ENV,
      // The processes ask the sentinels for the primary.
      REDIS_SENTINELS: slowLinks.map((link) => `127.0.0.1:${link.port}`).join(','),
      REDIS_SENTINEL_MASTER: sentinel.master,
    });
    cleanups.push(() => pipeline.cleanup());
    operator = createRedisClient(loadConfig({ ...topology, REDIS_PREFIX: pipeline.redis.prefix }), 'service');
    // Its reconnects to the killed primary are expected; the commands report what matters.
    operator.on('error', () => undefined);
    cleanups.push(() => operator.disconnect());
  });
  afterAll(async () => {
    await api?.process.stop('SIGKILL');
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const newKey = (name: string) => createNamedKey(pipeline.database.db, name);

  it('follows the new primary: nothing lost, only 200s and 503 problems, a revoke still refused', async () => {
    const worker = await pipeline.startWorker();
    api = await startService('api', pipeline.env);
    const base = api.base;
    const [loaded, revoked] = [await newKey('loaded'), await newKey('revoked')];
    // The API listens before its first connection through the slow links is made.
    expect(await firstAnswerOtherThan503(() => searchStatus(base, revoked.secret))).toBe(200);
    const load = startLoad(searchRequest(base, loaded.secret), { concurrency: 2, pauseMs: 10 });

    const ingest = await pipeline.ingest(lines, ['--wait', '--timeout', '180']);
    await ingest.waitForOutput(/processed 2\/\d+ jobs/, 120_000);
    // Revoked just before the primary dies; the promoted replica is then given the worst replication
    // can leave: the key's vouch from before the revoke, and no bar.
    const vouch = vouchRedisKey(pipeline.redis.prefix, revoked.key.id);
    const staleVouch = await operator.get(vouch);
    expect(staleVouch).not.toBeNull();
    const vouches = createKeyVouches(operator, pipeline.redis.prefix);
    await revokeApiKey(pipeline.database.db, vouches, revoked.key.id);
    const primary = await sentinel.primaryPort();
    await sentinel.kill(primary);
    await sentinel.waitForFailoverFrom(primary, 30_000);
    await stageStaleVouch(await sentinel.primaryPort(), pipeline.redis.prefix, revoked.key.id, staleVouch);

    // The API's first answer other than a 503 for the revoked key is a refusal.
    expect(await firstAnswerOtherThan503(() => searchStatus(base, revoked.secret))).toBe(401);

    // Nothing lost, nothing twice, however many batches the replica had not received.
    expect(await ingest.exited, `${ingest.output()}\nworker:\n${worker.output()}`).toBe(0);
    expect(ingest.output()).not.toMatch(/FAILED|NOT STORED/);
    await waitForConvergence(pipeline.convergenceInput(lines), 90_000);

    await stopLoadAfterFailover(load);
  });
});
