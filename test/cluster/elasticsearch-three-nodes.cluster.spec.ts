import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reindex } from '@directory/operator';
import { createSearchClient, indicesBehindAlias, type SearchClient } from '@directory/search-index';
import {
  assertNoServerErrors,
  createTestDatabase,
  createTestRedis,
  eventually,
  SITE_ORIGIN,
  startPrivateElasticsearch,
  type PrivateElasticsearch,
  type TestDatabase,
} from '@directory/testing';
import { startProcessIngest, type ProcessIngest } from '../faults/process-ingest.fixture.js';
import { sampleLines } from '../faults/store-pipeline.fixture.js';
import {
  createLoadKey,
  faultEnvironment,
  lastOutput,
  searchRequest,
  sleep,
  startService,
  startTimedLoad,
  type RunningService,
} from '../faults/service-processes.fixture.js';

// Three master-eligible nodes, one replica of every shard, the processes given every node, one cluster for
// three losses in turn: a node that is not the master SIGKILLed during an ingest (not one request fails),
// the elected master SIGKILLed during an ingest, and a data node SIGKILLed right after a reindex's alias
// swap (every search answers 200 or a 503 problem). Nothing is lost, and the cluster is green again after
// each restart.
describe('cluster: three Elasticsearch nodes, a node, the master or a data node lost', () => {
  let elasticsearch: PrivateElasticsearch;
  let database: TestDatabase;
  let client: SearchClient;
  const redis = createTestRedis('es-three-nodes');
  const alias = 'doctors';
  let env: Record<string, string>;
  let run: ProcessIngest;
  const services: RunningService[] = [];
  let api: RunningService;
  let secret: string;

  beforeAll(async () => {
    [elasticsearch, database] = await Promise.all([
      startPrivateElasticsearch('three-nodes', { nodes: 3 }),
      createTestDatabase('es-three-nodes'),
    ]);
    // As the reindex command makes its own: long timeouts, a few retries over every node.
    client = createSearchClient(elasticsearch.urls, { timeoutMs: 120_000, maxRetries: 3 });
    env = faultEnvironment({
      DATABASE_URL: database.url,
      REDIS_PREFIX: redis.prefix,
      ELASTICSEARCH_URL: elasticsearch.urls.join(','),
      ELASTICSEARCH_INDEX: alias,
      ELASTICSEARCH_SHARDS: '3',
      ELASTICSEARCH_REPLICAS: '1',
      // Small batches, one at a time: the ingest lasts long enough for the master to die in the middle.
      INGEST_BATCH_SIZE: '100',
      WORKER_CONCURRENCY: '1',
      INGEST_RETRY_DELAY_MS: '100',
      INGEST_RETRY_MAX_DELAY_MS: '1000',
    });
    run = await startProcessIngest({ env, db: database.db, search: { client, alias } });
    services.push(await startService('worker', env));
    api = await startService('api', env);
    services.push(api);
    secret = await createLoadKey(database.db);
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.process.stop('SIGKILL')));
    await client?.close();
    await redis.cleanup();
    await database?.drop();
    await elasticsearch?.destroy();
    await run?.cleanup();
  });
  beforeEach((context) => {
    context.onTestFailed(() => console.error(lastOutput(services)));
  });

  /** The lost node back after a few seconds, the cluster green and the index converged; the load's tally. */
  const restartAfterLoss = async (
    lost: PrivateElasticsearch['nodes'][number],
    load: ReturnType<typeof startTimedLoad>,
  ): Promise<Awaited<ReturnType<typeof load.stop>>> => {
    await sleep(3_000);
    await lost.start();
    await elasticsearch.waitForHealth('green', 3);
    await run.converged();
    return load.stop();
  };

  const node = (name: string): PrivateElasticsearch['nodes'][number] => {
    const found = elasticsearch.nodes.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no node ${name}`);
    return found;
  };

  it('creates the index with the configured shards and replicas over the nodes; losing a node that is not the master during an ingest fails no request', async () => {
    await elasticsearch.waitForHealth('green', 3);
    const settings = await client.indices.getSettings({ index: alias });
    const index = Object.values(settings)[0]?.settings?.index;
    expect([index?.number_of_shards, index?.number_of_replicas]).toEqual(['3', '1']);
    const shards = await client.cat.shards({ index: alias, format: 'json' });
    expect(new Set(shards.map((shard) => shard.node)).size, 'copies on every node').toBe(3);

    const load = startTimedLoad(searchRequest(api.base, secret), { concurrency: 4 });
    const lines = sampleLines(4_000, 47);
    await run.ingest(lines);
    await eventually(async () => (await run.storedEvents()) > 0, 60_000, 'the ingest to be under way');
    const master = await elasticsearch.masterName();
    const victim = elasticsearch.nodes.find((candidate) => candidate.name !== master);
    if (!victim) throw new Error('no node other than the master');
    await victim.kill();
    const storedAtKill = await run.storedEvents();
    const { tally, count, slowestMs } = await restartAfterLoss(victim, load);
    console.info(
      `three nodes: ${victim.name} (not the master) killed after ${storedAtKill} of ${lines.length} events; ` +
        `${count} searches, slowest ${Math.round(slowestMs)} ms`,
    );
    expect(storedAtKill, 'the node died while the ingest was under way').toBeLessThan(lines.length / 2);
    assertNoServerErrors(tally);
    // Every document has a copy on another node: not even a 503. A failure names what Elasticsearch answered.
    const unavailable = api.process
      .output()
      .split('\n')
      .filter((line) => line.includes('search unavailable'))
      .map((line) => line.slice(0, 800));
    expect(
      Object.fromEntries(tally.byStatus),
      `${count} requests; the API's unavailable searches:\n${unavailable.join('\n')}`,
    ).toEqual({ 200: count });
  });

  it('loses the elected master during an ingest: a new one is elected, searches answer, nothing is lost, green again', async () => {
    await elasticsearch.waitForHealth('green', 3);
    const load = startTimedLoad(searchRequest(api.base, secret), { concurrency: 4, pauseMs: 10 });
    const before = await run.storedEvents();
    const lines = sampleLines(4_000, 53);
    await run.ingest(lines);
    await eventually(async () => (await run.storedEvents()) > before, 60_000, 'the ingest to be under way');

    const master = node(await elasticsearch.masterName());
    await master.kill();
    const storedAtKill = (await run.storedEvents()) - before;
    // Two of three voters remain: a new master is elected without the old one coming back.
    await eventually(
      async () => (await elasticsearch.masterName().catch(() => master.name)) !== master.name,
      60_000,
      'a new master to be elected',
    );
    const { tally, count, slowestMs } = await restartAfterLoss(master, load);
    console.info(
      `three nodes: master ${master.name} killed after ${storedAtKill} of ${lines.length} events; ` +
        `${count} searches (${JSON.stringify(Object.fromEntries(tally.byStatus))}), slowest ${Math.round(slowestMs)} ms`,
    );
    expect(storedAtKill, 'the master died while the ingest was under way').toBeLessThan(lines.length / 2);
    assertNoServerErrors(tally);
  });

  it('loses a data node right after a reindex swap: searches answer, the new index is complete, green again', async () => {
    const [before] = await indicesBehindAlias(client, alias);
    const load = startTimedLoad(searchRequest(api.base, secret), { concurrency: 4, pauseMs: 10 });
    const master = await elasticsearch.masterName();
    const victim = elasticsearch.nodes.find((candidate) => candidate.name !== master);
    if (!victim) throw new Error('no data node other than the master');
    let killedAfterSwap = false;
    let healthAtSwap: string | undefined;
    const summary = await reindex({
      db: database.db,
      client,
      alias,
      siteOrigin: SITE_ORIGIN,
      shape: { shards: 3, replicas: 1 },
      onProgress: async (event) => {
        if (event.phase === 'swap')
          healthAtSwap = (await client.cluster.health({ index: event.detail.split(' → ')[1] })).status;
        // 'cleanup' comes once the alias has moved and the changes written meanwhile are caught up.
        if (event.phase !== 'cleanup' || killedAfterSwap) return;
        killedAfterSwap = true;
        await victim.kill();
      },
    });
    expect(killedAfterSwap).toBe(true);
    // The alias moved only once every replica of the new index was assigned.
    expect(healthAtSwap).toBe('green');
    expect(summary.newIndex).not.toBe(before);
    expect(await indicesBehindAlias(client, alias)).toEqual([summary.newIndex]);
    // The swap waited for green, so every shard of the new index still has a copy: complete at once.
    await run.converged();
    const { tally, count, slowestMs } = await restartAfterLoss(victim, load);
    console.info(
      `three nodes: ${victim.name} killed after the swap to ${summary.newIndex}; ${count} searches ` +
        `(${JSON.stringify(Object.fromEntries(tally.byStatus))}), slowest ${Math.round(slowestMs)} ms`,
    );
    assertNoServerErrors(tally);
  });
});
