import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisClient, loadConfig, queuePrefix, type RedisClient } from '@directory/config';
import { createKeyVouches, revokeApiKey, usageOfKeys, vouchRedisKey } from '@directory/keys';
import {
  assertNoServerErrors,
  createResponseTally,
  eventually,
  recordResponse,
  startLoad,
  startPrivateRedisCluster,
  waitForConvergence,
  type PrivateRedisCluster,
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
  FAILOVER_QUOTA as QUOTA,
  firstAnswerOtherThan503,
  keyedSearch,
  searchStatus,
  stageStaleVouch,
  stopLoadAfterFailover,
} from './redis-failover.fixture.js';

describe('Redis Cluster: three primaries with a replica each, one primary killed under load and ingest', () => {
  let cluster: PrivateRedisCluster;
  let pipeline: StorePipeline;
  let operator: RedisClient;
  // Undone in reverse order, whatever beforeAll got to.
  const cleanups: Array<() => unknown> = [];
  let apis: RunningService[] = [];
  const firstLines = sampleLines(400, 51);
  const secondLines = sampleLines(3_000, 52);

  beforeAll(async () => {
    cluster = await startPrivateRedisCluster();
    cleanups.push(() => cluster.destroy());
    pipeline = await startStorePipeline('redis-cluster', {
      ...FAILOVER_PROCESS_ENV,
      // The processes find the cluster from its nodes.
      REDIS_CLUSTER_NODES: cluster.nodes,
      KEY_USAGE_FLUSH_INTERVAL_S: '1',
    });
    cleanups.push(() => pipeline.cleanup());
    operator = createRedisClient(
      loadConfig({ REDIS_CLUSTER_NODES: cluster.nodes, REDIS_PREFIX: pipeline.redis.prefix }),
      'service',
    );
    // Its reconnects to the killed nodes are expected; the commands report what matters.
    operator.on('error', () => undefined);
    cleanups.push(() => operator.disconnect());
  });
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.process.stop('SIGKILL')));
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  // The APIs' log lines of unhandled errors, for a failure's message: what a 500 was made of.
  const serverErrors = () =>
    apis
      .flatMap((api) => api.process.output().split('\n'))
      .filter((line) => line.includes('"msg":"unhandled error"'))
      .slice(0, 5)
      .join('\n');
  const newKey = (name: string) => createNamedKey(pipeline.database.db, name);
  const search = (api: RunningService, secret: string) => keyedSearch(api.base, secret);
  const statusOf = (api: RunningService, secret: string) => searchStatus(api.base, secret);

  it('ingests, counts quotas exactly across two APIs, revokes at once, and rides out a failover', async () => {
    await pipeline.startWorker();
    const first = await pipeline.ingest(firstLines, ['--wait', '--timeout', '120']);
    expect(await first.exited, first.output()).toBe(0);
    await waitForConvergence(pipeline.convergenceInput(firstLines), 60_000);
    apis = await Promise.all([startService('api', pipeline.env), startService('api', pipeline.env)]);
    const [a, b] = apis;
    if (!a || !b) throw new Error('the APIs did not start');

    // One quota across both processes: each request, wherever it lands, takes exactly one.
    const counted = await newKey('quota');
    const remaining: number[] = [];
    for (let request = 0; request < 10; request++) {
      const response = await search(request % 2 === 0 ? a : b, counted.secret);
      await response.body?.cancel();
      expect(response.status).toBe(200);
      remaining.push(Number(response.headers.get('ratelimit-remaining')));
    }
    expect(remaining).toEqual(Array.from({ length: 10 }, (_, index) => QUOTA - 1 - index));
    // Both processes hand their usage on through the cluster (tally, shared hash, batch) to PostgreSQL.
    await eventually(
      async () => {
        const usage = await usageOfKeys(pipeline.database.db, [counted.key.id], '2000-01-01');
        return usage.reduce((sum, day) => sum + day.requests, 0) === 10;
      },
      30_000,
      'the quota key usage to reach PostgreSQL',
    );

    // A revoke is effective on the next request in both processes, which had the key in memory.
    const revoked = await newKey('revoked');
    for (const api of apis) expect(await statusOf(api, revoked.secret)).toBe(200);
    const vouches = createKeyVouches(operator, pipeline.redis.prefix);
    await revokeApiKey(pipeline.database.db, vouches, revoked.key.id);
    for (const api of apis) expect(await statusOf(api, revoked.secret)).toBe(401);

    // The victim: the primary holding the ingest queue's slot, and a key whose vouch and bar it holds.
    const victim = await cluster.primaryFor(
      `${queuePrefix(loadConfig({ REDIS_CLUSTER_NODES: cluster.nodes, REDIS_PREFIX: pipeline.redis.prefix }))}:ingest:meta`,
    );
    const onVictim: Array<Awaited<ReturnType<typeof newKey>>> = [];
    for (let attempt = 0; attempt < 60 && onVictim.length < 2; attempt++) {
      const candidate = await newKey(`on-victim-${attempt}`);
      if ((await cluster.primaryFor(vouchRedisKey(pipeline.redis.prefix, candidate.key.id))) === victim)
        onVictim.push(candidate);
    }
    const [doomed, loaded] = onVictim;
    if (doomed === undefined || loaded === undefined) throw new Error('no 2 keys of 60 hashed to the victim');
    for (const api of apis) expect(await statusOf(api, doomed.secret)).toBe(200);

    // Load with a key whose slot the victim serves (its requests fail over with it) and one elsewhere.
    const load = startLoad(
      (() => {
        let next = 0;
        const requests = apis.flatMap((api) => [
          searchRequest(api.base, loaded.secret),
          searchRequest(api.base, counted.secret),
        ]);
        return () => requests[next++ % requests.length]?.() ?? Promise.reject(new Error('no API'));
      })(),
      { concurrency: 4, pauseMs: 10 },
    );
    const second = await pipeline.ingest(secondLines, ['--wait', '--timeout', '180']);
    await second.waitForOutput(/processed 2\/\d+ jobs/, 120_000);
    // Revoked just before its primary dies. Replication is asynchronous: the replica that takes over
    // may hold the key's vouch from before the revoke and no bar. That worst case is written into it
    // once promoted (a stopped replica still receives into its socket buffer, so it cannot be staged).
    const vouch = vouchRedisKey(pipeline.redis.prefix, doomed.key.id);
    const staleVouch = await operator.get(vouch);
    expect(staleVouch).not.toBeNull();
    const replica = await cluster.replicaOf(victim);
    await revokeApiKey(pipeline.database.db, vouches, doomed.key.id);
    await cluster.kill(victim);
    await cluster.waitForPromotionOf(victim, 30_000);
    await stageStaleVouch(replica, pipeline.redis.prefix, doomed.key.id, staleVouch);

    // Each API's first answer other than a 503 for the revoked key is a refusal.
    for (const api of apis)
      expect(await firstAnswerOtherThan503(() => statusOf(api, doomed.secret))).toBe(401);

    // Nothing lost, nothing twice: the ingest ends cleanly and the index is a replay of the store.
    expect(await second.exited, second.output()).toBe(0);
    expect(second.output()).not.toMatch(/FAILED|NOT STORED/);
    await waitForConvergence(pipeline.convergenceInput([...firstLines, ...secondLines]), 90_000);

    // Only 200s and 503 problems meanwhile, and searches answered again after the failover.
    await stopLoadAfterFailover(load, serverErrors);

    // The promoted node dies too: its slots have no node left, and the live nodes answer CLUSTERDOWN
    // for every slot. Keyed requests are then 503 problems, never 500s.
    await cluster.kill(replica);
    const outage = createResponseTally();
    // Until a few requests met the outage (the nodes call the dead one failed after the 1 s node
    // timeout), at most 20 s.
    const until = Date.now() + 20_000;
    while (Date.now() < until && (outage.byStatus.get(503) ?? 0) < 4)
      for (const api of apis) await recordResponse(outage, () => search(api, counted.secret));
    console.info('searches with the cluster down, by status:', Object.fromEntries(outage.byStatus));
    expect(outage.unacceptable, serverErrors()).toEqual([]);
    assertNoServerErrors(outage);
    expect(outage.byStatus.get(503) ?? 0).toBeGreaterThan(0);
  });
});
