import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  assertNoServerErrors,
  createTestDatabase,
  createTestRedis,
  eventually,
  startPrivateElasticsearch,
  type PrivateElasticsearch,
  type TestDatabase,
} from '@directory/testing';
import { startProcessIngest, type ProcessIngest } from './process-ingest.fixture.js';
import { sampleLines } from './store-pipeline.fixture.js';
import {
  createLoadKey,
  lastOutput,
  searchRequest,
  sleep,
  startService,
  startTimedLoad,
  type RunningService,
  faultEnvironment,
} from './service-processes.fixture.js';

// A two-node cluster (one replica of every shard), the processes given both nodes: a node SIGKILLed
// under steady search load and during an ingest costs no request and no event.
describe('fault: one node of a two-node Elasticsearch cluster SIGKILLed', () => {
  let elasticsearch: PrivateElasticsearch;
  let database: TestDatabase;
  const redis = createTestRedis('es-two-nodes');
  const alias = 'doctors';
  let env: Record<string, string>;
  let run: ProcessIngest;
  const services: RunningService[] = [];

  beforeAll(async () => {
    [elasticsearch, database] = await Promise.all([
      startPrivateElasticsearch('two-nodes', { nodes: 2 }),
      createTestDatabase('es-two-nodes'),
    ]);
    env = faultEnvironment({
      DATABASE_URL: database.url,
      REDIS_PREFIX: redis.prefix,
      ELASTICSEARCH_URL: elasticsearch.urls.join(','),
      ELASTICSEARCH_INDEX: alias,
      ELASTICSEARCH_SHARDS: '2',
      ELASTICSEARCH_REPLICAS: '1',
      // Small batches, one at a time: the ingest lasts long enough for the node to die in the middle of it.
      INGEST_BATCH_SIZE: '100',
      WORKER_CONCURRENCY: '1',
      INGEST_RETRY_DELAY_MS: '100',
      INGEST_RETRY_MAX_DELAY_MS: '1000',
    });
    run = await startProcessIngest({ env, db: database.db, search: { client: elasticsearch.client, alias } });
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.process.stop('SIGKILL')));
    await redis.cleanup();
    await database?.drop();
    await elasticsearch?.destroy();
    await run?.cleanup();
  });
  beforeEach((context) => {
    context.onTestFailed(() => console.error(lastOutput(services)));
  });

  it('creates the index with the configured shards and replicas, spread over both nodes', async () => {
    services.push(await startService('worker', env));
    await elasticsearch.waitForHealth('green', 2);
    const settings = await elasticsearch.client.indices.getSettings({ index: alias });
    const index = Object.values(settings)[0]?.settings?.index;
    expect([index?.number_of_shards, index?.number_of_replicas]).toEqual(['2', '1']);
    await run.ingest(sampleLines(1_500, 43));
    await run.converged();
  });

  it('answers every search while a node is killed during an ingest, loses nothing, and is green again', async () => {
    const api = await startService('api', env);
    services.push(api);
    const secret = await createLoadKey(database.db);
    const request = searchRequest(api.base, secret);
    expect((await request()).status).toBe(200);
    const load = startTimedLoad(request, { concurrency: 4 });

    const before = await run.storedEvents();
    const lines = sampleLines(4_000, 47);
    await run.ingest(lines);
    await eventually(async () => (await run.storedEvents()) > before, 60_000, 'the ingest to be under way');
    // The node that is not the elected master: with two master-eligible nodes only one of them votes,
    // so losing the master stops writes (not reads) until it returns; losing the other is invisible.
    const master = await elasticsearch.masterName();
    const victim = elasticsearch.nodes.find((node) => node.name !== master);
    if (!victim) throw new Error('no non-master node');
    await victim.kill();
    const storedAtKill = (await run.storedEvents()) - before;
    await sleep(5_000);
    await victim.start();
    await elasticsearch.waitForHealth('green', 2);
    await run.converged();
    const { tally, count, slowestMs } = await load.stop();
    console.info(
      `two-node cluster: node killed after ${storedAtKill} of ${lines.length} events; ${count} searches, slowest ${Math.round(slowestMs)} ms`,
    );
    expect(storedAtKill, 'the node died while the ingest was under way').toBeLessThan(lines.length / 2);

    assertNoServerErrors(tally);
    // No failed request at all: not even a 503. A failure names what Elasticsearch answered.
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
});
