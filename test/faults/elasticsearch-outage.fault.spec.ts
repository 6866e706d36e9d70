import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { cappedBackoffDelay, createIngestQueue } from '@directory/ingest';
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
  timeToExit,
  type RunningService,
  faultEnvironment,
} from './service-processes.fixture.js';

// The old policy failed a batch after 12 attempts (about 17 minutes at its timings). Timings are shrunk
// by configuration (retry delay 100 ms doubling to 400 ms): 12 attempts then take OLD_BUDGET_MS, about
// 4 s, and the node stays down OUTAGE_MS, several times that.
const RETRY = { baseMs: 100, maxMs: 400 };
const OLD_BUDGET_MS = Array.from({ length: 11 }, (_, index) =>
  cappedBackoffDelay(index + 1, RETRY, () => 0),
).reduce((sum, delay) => sum + delay, 0);
const OUTAGE_MS = 15_000;

describe('fault: Elasticsearch down longer than the old retry budget (a private node)', () => {
  let elasticsearch: PrivateElasticsearch;
  let database: TestDatabase;
  const redis = createTestRedis('es-outage');
  const alias = 'doctors';
  let env: Record<string, string>;
  let run: ProcessIngest;
  const services: RunningService[] = [];

  beforeAll(async () => {
    [elasticsearch, database] = await Promise.all([
      startPrivateElasticsearch('outage'),
      createTestDatabase('es-outage'),
    ]);
    env = faultEnvironment({
      DATABASE_URL: database.url,
      REDIS_PREFIX: redis.prefix,
      ELASTICSEARCH_URL: elasticsearch.urls.join(','),
      ELASTICSEARCH_INDEX: alias,
      INGEST_BATCH_SIZE: '250',
      INGEST_RETRY_DELAY_MS: String(RETRY.baseMs),
      INGEST_RETRY_MAX_DELAY_MS: String(RETRY.maxMs),
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

  it('loses nothing and converges once the node is back; the API answers 503 problems meanwhile', async () => {
    const worker = await startService('worker', env);
    const api = await startService('api', env);
    services.push(worker, api);
    const secret = await createLoadKey(database.db);
    const request = searchRequest(api.base, secret);
    const load = startTimedLoad(request, { concurrency: 2, pauseMs: 20 });
    const queue = createIngestQueue({ connection: { url: env.REDIS_URL ?? '' }, prefix: redis.prefix });
    onTestFinished(() => queue.close());

    await run.ingest(sampleLines(4_000, 41));
    await eventually(async () => (await run.storedEvents()) > 0, 60_000, 'the first batch to be stored');

    const node = elasticsearch.nodes[0];
    if (!node) throw new Error('no node');
    await node.kill();
    const downSince = Date.now();
    // Batches meet the outage (retried at the capped backoff) until the worker's readiness gate sees the
    // node gone and stops taking jobs; either way the node stays down well past the old budget.
    await eventually(
      () => Promise.resolve(/batch failed; will retry|taking no jobs/.test(worker.process.output())),
      30_000,
      'the worker to notice the outage',
    );
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - downSince)));
    const outageMs = Date.now() - downSince;
    await node.start();
    await elasticsearch.waitForHealth('green');

    await run.converged();
    await eventually(async () => (await request()).status === 200, 30_000, 'the API to answer 200 again');
    const { tally, count, slowestMs } = await load.stop();
    const attempts = [
      ...worker.process.output().matchAll(/"attempt":(\d+)[^\d\n][^\n]*batch failed; will retry/g),
    ].map((match) => Number(match[1]));
    console.info(
      `Elasticsearch down ${outageMs} ms (old budget ${OLD_BUDGET_MS} ms): highest attempt ${Math.max(0, ...attempts)}; API ${JSON.stringify(Object.fromEntries(tally.byStatus))} of ${count}, slowest ${Math.round(slowestMs)} ms`,
    );
    assertNoServerErrors(tally);
    expect(tally.byStatus.get(503) ?? 0, `503s during an outage of ${outageMs} ms`).toBeGreaterThan(0);
    expect(outageMs).toBeGreaterThan(3 * OLD_BUDGET_MS);
    expect(worker.process.output()).not.toMatch(/will not be retried automatically/);
    expect(await queue.getFailedCount()).toBe(0);
  });

  it('finishes SIGTERM within ten seconds on the api and the worker while Elasticsearch is paused', async () => {
    const [api, worker] = [await startService('api', env), await startService('worker', env)];
    services.push(api, worker);
    const secret = await createLoadKey(database.db);
    await run.ingest(sampleLines(2_000, 53));

    const node = elasticsearch.nodes[0];
    if (!node) throw new Error('no node');
    node.pause();
    try {
      // Searches that wait on the silent node while the processes are told to stop.
      const inFlight = Array.from({ length: 3 }, () =>
        searchRequest(api.base, secret)().then(
          (response) => response.status,
          () => 0,
        ),
      );
      await sleep(500);
      const exits = await Promise.all([api, worker].map((service) => timeToExit(service.process)));
      console.info(
        `SIGTERM while Elasticsearch is paused: api ${Math.round(exits[0]?.ms ?? -1)} ms, worker ${Math.round(exits[1]?.ms ?? -1)} ms`,
      );
      for (const exit of exits) expect(exit.ms).toBeLessThan(10_000);
      await Promise.all(inFlight);
    } finally {
      node.resume();
    }
  });
});
