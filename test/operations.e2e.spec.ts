import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@directory/config';
import { createIngestQueue } from '@directory/ingest';
import { createApiKey, ensureAccount } from '@directory/keys';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  REPOSITORY_ROOT,
  nodeArguments,
  crawled,
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  eventually,
  freePort,
  published,
  scrapeMetrics,
  startProcess,
  startTcpProxy,
  type RunningProcess,
  type TcpProxy,
  type TestDatabase,
} from '@directory/testing';

const run = promisify(execFile);
const OPS_TOKEN = 'operations-e2e-token-0123456789abcdef';

/**
 * The operator's view of a running stack: a worker and an API, both reaching Elasticsearch through a
 * proxy the test can cut (the shared node itself is never touched).
 */
describe('operations: probes, metrics, queue dashboard, npm run status', () => {
  let database: TestDatabase;
  const redis = createTestRedis('operations-e2e');
  const search = createTestSearch('operations-e2e');
  const alias = `${search.prefix}_doctors`;
  const queue = createIngestQueue({ connection: { url: loadConfig().REDIS_URL }, prefix: redis.prefix });
  let proxy: TcpProxy;
  let env: Record<string, string>;
  let worker: RunningProcess;
  let api: RunningProcess;
  let workerOps: string;
  let apiOps: string;
  let apiBase: string;
  let apiKey: string;

  beforeAll(async () => {
    database = await createTestDatabase('operations-e2e');
    await ensureDoctorsIndex(search.client, alias);
    const elasticsearch = new URL(loadConfig().ELASTICSEARCH_URL);
    proxy = await startTcpProxy({ host: elasticsearch.hostname, port: Number(elasticsearch.port) });
    env = {
      DATABASE_URL: database.url,
      REDIS_PREFIX: redis.prefix,
      ELASTICSEARCH_URL: `http://127.0.0.1:${proxy.port}`,
      ELASTICSEARCH_INDEX: alias,
      ELASTICSEARCH_TIMEOUT_MS: '1000',
      SITE_ORIGIN: 'https://www.doctor-directory.example',
      OPS_TOKEN,
      OPS_SAMPLE_INTERVAL_MS: '300',
      RECONCILE_INTERVAL_MS: '500',
      SWEEP_INTERVAL_MS: '1000',
      SWEEP_GRACE_MS: '1000',
      LOG_LEVEL: 'info',
    };
    const [workerOpsPort, apiPort, apiOpsPort] = [await freePort(), await freePort(), await freePort()];
    workerOps = `http://127.0.0.1:${workerOpsPort}`;
    apiOps = `http://127.0.0.1:${apiOpsPort}`;
    apiBase = `http://127.0.0.1:${apiPort}`;
    worker = startProcess('services/worker/src/main.ts', [], {
      ...env,
      WORKER_OPS_PORT: String(workerOpsPort),
    });
    api = startProcess('services/api/src/server.ts', [], {
      ...env,
      API_PORT: String(apiPort),
      API_OPS_PORT: String(apiOpsPort),
    });
    const account = await ensureAccount(database.db, 'operations@example.com');
    apiKey = (await createApiKey(database.db, { accountId: account.id, name: 'operations' })).secret;
    await Promise.all([worker.waitForOutput(/worker started/), api.waitForOutput(/Server listening/)]);
  });

  afterAll(async () => {
    await Promise.all([worker.stop('SIGKILL'), api.stop('SIGKILL')]);
    await queue.close();
    await proxy.close();
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
  });

  const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
  const searchDoctors = () =>
    get(`${apiBase}/api/v1/doctors?country=de&city=berlin`, { 'x-api-key': apiKey }).then((response) =>
      response.json().then((body) => ({ status: response.status, body: body as { doctors?: unknown[] } })),
    );
  const status = (overrides: Record<string, string> = {}) =>
    run(process.execPath, nodeArguments('packages/operator/src/status.cli.ts', []), {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, ...env, ...overrides },
    }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );

  async function ingest(placeIds: string[]): Promise<void> {
    const at = new Date().toISOString();
    const items = placeIds.flatMap((placeId) => [
      { raw: crawled(placeId, 1, at), source: 'operations-e2e' },
      { raw: published(placeId, at), source: 'operations-e2e' },
    ]);
    const job = await queue.add('batch', { items });
    await eventually(async () => (await job.getState()) === 'completed', 20_000, 'the batch to complete');
  }

  it('/metrics: ingest, pipeline and HTTP series are present and move', async () => {
    const workerBefore = await scrapeMetrics(`${workerOps}/metrics`);
    const apiBefore = await scrapeMetrics(`${apiOps}/metrics`);
    await ingest(['OPS-A1', 'OPS-A2', 'OPS-A3']);
    await eventually(
      async () => (await searchDoctors()).body.doctors?.length === 3,
      10_000,
      'three doctors searchable',
    );
    await searchDoctors();

    await eventually(
      async () => {
        const scrape = await scrapeMetrics(`${workerOps}/metrics`);
        // All three are sampled on intervals of their own: wait until each has seen the batch.
        return (
          scrape.value('directory_freshness_seconds') > 0 &&
          scrape.value('directory_reconciliation_served', { store: 'index' }) === 3 &&
          // The reconciliation also counts each dataset's 90-day crawl coverage: all three just observed.
          scrape.value('directory_dataset_coverage_ratio', { dataset: 'de' }) === 1 &&
          scrape.value('directory_queue_jobs', { queue: 'ingest', state: 'completed' }) > 0
        );
      },
      10_000,
      'a freshness sample, a reconciliation that sees the three documents and a queue sample with the batch',
    );
    const workerAfter = await scrapeMetrics(`${workerOps}/metrics`);
    expect(
      workerAfter.value('directory_ingest_events_total', { outcome: 'stored' }) -
        workerBefore.value('directory_ingest_events_total', { outcome: 'stored' }),
    ).toBe(6);
    expect(workerAfter.value('directory_ingest_batch_duration_seconds')).toBeGreaterThan(
      workerBefore.value('directory_ingest_batch_duration_seconds'),
    );
    expect(
      workerAfter.value('directory_queue_jobs', { queue: 'ingest', state: 'completed' }),
    ).toBeGreaterThan(0);
    expect(workerAfter.value('directory_reconciliation_served', { store: 'postgresql' })).toBe(3);
    expect(workerAfter.value('directory_reconciliation_difference')).toBe(0);
    for (const name of [
      'directory_projection_lag_places',
      'directory_projection_lag_oldest_change_age_seconds',
      'directory_projection_staleness_seconds',
      'directory_elasticsearch_bulk_item_failures_total',
      'directory_ingest_batch_failures_total',
      'directory_worker_ready',
    ]) {
      expect(workerAfter.has(name), name).toBe(true);
    }
    expect(workerAfter.value('directory_worker_ready')).toBe(1);

    const apiAfter = await scrapeMetrics(`${apiOps}/metrics`);
    const searches = { route: '/api/v1/doctors', method: 'GET', status: '200' };
    expect(apiAfter.value('http_requests_total', searches)).toBeGreaterThan(
      apiBefore.value('http_requests_total', searches),
    );
    // The hot-query cache (on by default): the searches above were sent to Elasticsearch through it.
    expect(apiAfter.value('search_cache_requests_total', { outcome: 'miss' })).toBeGreaterThan(
      apiBefore.value('search_cache_requests_total', { outcome: 'miss' }),
    );
    expect(apiAfter.has('search_cache_entries')).toBe(true);
    // (this parser keeps no labels on histogram samples: the observation count over all routes)
    expect(apiAfter.value('http_request_duration_seconds')).toBeGreaterThanOrEqual(
      apiBefore.value('http_request_duration_seconds') + 2,
    );
  });

  it('npm run status exits 0 on a healthy stack', async () => {
    const result = await status();
    expect(result.stdout).toContain('OK: nothing needs attention');
    expect(result.stdout).toMatch(/served places\s+PostgreSQL 3 {2}index 3/);
    expect(result.stdout).toMatch(/observed in 90 days\s+de 100\.0% of 3\n/);
    expect(result.code).toBe(0);
  });

  it('/readyz turns 503 naming Elasticsearch while it is unreachable, the worker takes no jobs, and both recover', async () => {
    for (const base of [workerOps, apiOps]) {
      expect((await get(`${base}/readyz`)).status).toBe(200);
    }
    proxy.block();
    try {
      for (const base of [workerOps, apiOps]) {
        const response = await get(`${base}/readyz`);
        expect(response.status).toBe(503);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        const problem = (await response.json()) as {
          detail: string;
          dependencies: Array<{ name: string; ready: boolean }>;
        };
        expect(problem.detail).toMatch(/^not ready: elasticsearch \(/);
        expect(
          problem.dependencies.filter((dependency) => !dependency.ready).map(({ name }) => name),
        ).toEqual(['elasticsearch']);
        expect((await get(`${base}/livez`)).status).toBe(200);
      }
      await worker.waitForOutput(/taking no jobs until they are back/, 5_000);
      const unreachable = await status();
      expect(unreachable.code).not.toBe(0);
      expect(unreachable.stdout).toMatch(/ATTENTION: elasticsearch is not ready: /);

      const at = new Date().toISOString();
      const job = await queue.add('batch', {
        items: [{ raw: crawled('OPS-B1', 1, at), source: 'operations-e2e' }],
      });
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      // Not taken (or handed back at once, unspent, by a fetch that was already in flight).
      expect(['waiting', 'delayed']).toContain(await job.getState());
      expect((await queue.getJob(job.id ?? ''))?.attemptsMade).toBe(0);
      expect((await scrapeMetrics(`${workerOps}/metrics`)).value('directory_worker_ready')).toBe(0);
    } finally {
      proxy.unblock();
    }
    await eventually(
      async () => (await get(`${workerOps}/readyz`)).status === 200,
      10_000,
      'worker ready again',
    );
    await eventually(async () => (await get(`${apiOps}/readyz`)).status === 200, 10_000, 'API ready again');
    await eventually(
      async () => (await queue.getJobCounts('completed')).completed === 2,
      15_000,
      'the held batch to be taken once Elasticsearch is back',
    );
    expect(await (await get(`${apiOps}/readyz?verbose`)).text()).toBe(
      '[+]postgresql ok\n[+]redis ok\n[+]elasticsearch ok\nreadyz check passed\n',
    );
  });

  it('the queue dashboard needs the operator token and lists a failed job, which it can retry', async () => {
    expect((await get(`${workerOps}/queues`)).status).toBe(401);
    expect(
      (await get(`${workerOps}/queues/api/queues`, { authorization: 'Bearer wrong-token' })).status,
    ).toBe(401);

    // A batch whose data is not a list of items fails in the processor, and with one attempt stays failed.
    const doomed = await queue.add('batch', { items: null } as never, { attempts: 1 });
    await eventually(async () => (await doomed.getState()) === 'failed', 10_000, 'the doomed job to fail');

    const auth = { authorization: `Bearer ${OPS_TOKEN}` };
    expect((await get(`${workerOps}/queues`, auth)).status).toBe(200);
    const listing = await get(`${workerOps}/queues/api/queues?activeQueue=ingest&status=failed&page=1`, auth);
    expect(listing.status).toBe(200);
    const body = (await listing.json()) as { queues: Array<{ name: string; jobs: Array<{ id: string }> }> };
    const ingestQueue = body.queues.find((candidate) => candidate.name === 'ingest');
    expect(ingestQueue?.jobs.map((job) => job.id)).toContain(doomed.id);

    const basic = { authorization: `Basic ${Buffer.from(`operator:${OPS_TOKEN}`).toString('base64')}` };
    const retried = await fetch(`${workerOps}/queues/api/queues/ingest/${doomed.id}/retry`, {
      method: 'PUT',
      headers: basic,
    });
    expect(retried.status).toBeLessThan(300);
    await eventually(
      async () =>
        (await doomed.getState()) === 'failed' &&
        (await queue.getJob(doomed.id ?? ''))?.attemptsStarted === 2,
      10_000,
      'the retried job to run (and fail) again',
    );
  });
});
