import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '@directory/database';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  assertNoServerErrors,
  createTestRedis,
  createTestSearch,
  eventually,
  SITE_ORIGIN,
  startPrivatePostgres,
  startProcess,
  waitForConvergence,
  type PrivatePostgres,
} from '@directory/testing';
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

// PostgreSQL (a private cluster of this file's own) stopped and paused with SIGSTOP while the API is
// under load and while a worker ingests; Redis and Elasticsearch are the shared servers (own prefixes).
describe('fault: PostgreSQL stopped and paused (SIGSTOP)', () => {
  let postgres: PrivatePostgres;
  let db: Database;
  const redis = createTestRedis('postgres-outage');
  const search = createTestSearch('postgres-outage');
  const alias = `${search.prefix}_doctors`;
  let env: Record<string, string>;
  let workDir: string;
  const services: RunningService[] = [];
  const ingested: string[] = [];

  beforeAll(async () => {
    postgres = await startPrivatePostgres('outage');
    db = createDatabase(postgres.url, { maxConnections: 2 });
    await ensureDoctorsIndex(search.client, alias);
    workDir = await mkdtemp(join(tmpdir(), 'postgres-outage-'));
    env = faultEnvironment({
      DATABASE_URL: postgres.url,
      REDIS_PREFIX: redis.prefix,
      ELASTICSEARCH_INDEX: alias,
      INGEST_BATCH_SIZE: '250',
      INGEST_RETRY_DELAY_MS: '200',
      INGEST_RETRY_MAX_DELAY_MS: '1000',
      // Batches give up on a silent database quickly, so the scenario plays out in seconds.
      DATABASE_JOB_STATEMENT_TIMEOUT_MS: '3000',
    });
  });
  afterAll(async () => {
    postgres?.resume();
    await Promise.all(services.map((service) => service.process.stop('SIGKILL')));
    await db?.destroy();
    await redis.cleanup();
    await search.cleanup();
    await postgres?.destroy();
    await rm(workDir, { recursive: true, force: true });
  });

  beforeEach((context) => {
    context.onTestFailed(() => console.error(lastOutput(services)));
  });

  async function start(kind: RunningService['kind'], extraEnv: Record<string, string> = {}) {
    const service = await startService(kind, { ...env, ...extraEnv });
    services.push(service);
    return service;
  }

  async function ingest(lines: string[]): Promise<void> {
    const file = join(workDir, `input-${ingested.length}.ndjson`);
    await writeFile(file, `${lines.join('\n')}\n`);
    const producer = startProcess('packages/ingest/src/ingest.cli.ts', [file], env);
    expect(await producer.exited, producer.output()).toBe(0);
    ingested.push(...lines);
  }

  const storedEvents = async () =>
    Number(
      (
        await db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('keeps serving searches of a working key while the database is paused or stopped, answers what needs it with 503 within two seconds, then recovers', async () => {
    const api = await start('api');
    const secret = await createLoadKey(db);
    const unseenSecret = await createLoadKey(db);
    const search = searchRequest(api.base, secret);
    // The changes feed reads PostgreSQL on every page; a search needs it only for a key this process
    // has not read yet (createKeyLookup), and this key is read before the fault.
    const changes = () =>
      fetch(`${api.base}/api/v1/changes?country=de&limit=10`, {
        headers: { 'x-api-key': secret },
        signal: AbortSignal.timeout(15_000),
      });
    expect((await search()).status).toBe(200);
    expect((await changes()).status).toBe(200);

    const searchLoad = startTimedLoad(search, { concurrency: 2 });
    const changesLoad = startTimedLoad(changes, { concurrency: 2 });
    await sleep(1_000);
    postgres.pause();
    await sleep(5_000);
    postgres.resume();
    await eventually(
      async () => (await changes()).status === 200,
      15_000,
      'the feed to answer 200 after SIGCONT',
    );
    await postgres.stop();
    await sleep(3_000);
    await postgres.start();
    await eventually(
      async () => (await changes()).status === 200,
      15_000,
      'the feed to answer 200 after the restart',
    );
    await sleep(500);
    const searches = await searchLoad.stop();
    const feed = await changesLoad.stop();
    console.info(
      `PostgreSQL paused then stopped under API load: searches ${JSON.stringify(Object.fromEntries(searches.tally.byStatus))} of ${searches.count}, slowest ${Math.round(searches.slowestMs)} ms; feed ${JSON.stringify(Object.fromEntries(feed.tally.byStatus))} of ${feed.count}, slowest ${Math.round(feed.slowestMs)} ms`,
    );

    assertNoServerErrors(searches.tally);
    assertNoServerErrors(feed.tally);
    expect([...searches.tally.byStatus.keys()]).toEqual([200]);
    expect(feed.tally.byStatus.get(503) ?? 0, `of ${feed.count}`).toBeGreaterThan(10);
    expect(feed.tally.byStatus.get(200) ?? 0).toBeGreaterThan(10);
    expect([...feed.tally.byStatus.keys()].sort()).toEqual([200, 503]);
    expect(Math.max(searches.slowestMs, feed.slowestMs), 'the slowest answer (ms)').toBeLessThan(2_000);
    // A key this process never read cannot be checked without the database: 503, not 401 or a wait.
    postgres.pause();
    try {
      const started = performance.now();
      const unseen = await searchRequest(api.base, unseenSecret)();
      expect(unseen.status).toBe(503);
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      postgres.resume();
    }
  });

  it('loses nothing when the database is paused, or stopped, during an ingest', async () => {
    // Small batches, one at a time: each ingest lasts long enough for the fault to land in its middle.
    await start('worker', { WORKER_CONCURRENCY: '1', INGEST_BATCH_SIZE: '100' });
    const storedAtFault = async (fault: () => Promise<void>) => {
      const before = await storedEvents();
      const lines = sampleLines(3_000, 31 + ingested.length);
      await ingest(lines);
      await eventually(async () => (await storedEvents()) > before, 60_000, 'the first batch to be stored');
      // Counted just before the fault (a paused database answers no count).
      const stored = (await storedEvents()) - before;
      await fault();
      expect(stored, 'the fault hit while the ingest was under way').toBeLessThan(lines.length / 2);
      return stored;
    };

    const converged = () =>
      waitForConvergence(
        { db, search: { client: search.client, alias }, siteOrigin: SITE_ORIGIN, lines: ingested },
        120_000,
      );

    const beforePause = await storedAtFault(() => Promise.resolve(postgres.pause()));
    await sleep(5_000);
    postgres.resume();
    await converged();
    const beforeStop = await storedAtFault(() => postgres.stop());
    await sleep(3_000);
    await postgres.start();
    await converged();
    console.info(
      `PostgreSQL paused after ${beforePause} events of an ingest, stopped after ${beforeStop} of the next`,
    );
  });

  it('finishes SIGTERM within ten seconds on api, mcp, console and worker while the database is paused', async () => {
    // The worker keeps the default (long) statement timeout: only the shutdown bound can end its batch.
    const [api, mcp, consoleService, worker] = [
      services.find((service) => service.kind === 'api') ?? (await start('api')),
      await start('mcp'),
      await start('console'),
      await start('worker', { DATABASE_JOB_STATEMENT_TIMEOUT_MS: '60000', INGEST_BATCH_SIZE: '2000' }),
    ];
    for (const service of services.filter((candidate) => candidate.kind === 'worker' && candidate !== worker))
      await service.process.stop('SIGTERM');
    const secret = await createLoadKey(db);
    const lines = sampleLines(6_000, 37);
    const before = await storedEvents();
    await ingest(lines);
    await eventually(async () => (await storedEvents()) > before, 60_000, 'the worker to be mid-ingest');

    postgres.pause();
    // Requests that reach the silent database while the processes are told to stop.
    const inFlight = [
      fetch(`${api.base}/api/v1/key`, { headers: { 'x-api-key': secret } }),
      fetch(`${mcp.base}/mcp`, {
        method: 'POST',
        headers: {
          'x-api-key': secret,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
      fetch(`${consoleService.base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=a%40example.com&password=wrong-password-1',
      }),
    ].map((response) =>
      response.then(
        (answer) => answer.status,
        () => 0,
      ),
    );
    await sleep(300);
    const exits = await Promise.all(
      [api, mcp, consoleService, worker].map((service) => timeToExit(service.process)),
    );
    postgres.resume();
    await Promise.all(inFlight);

    console.info(
      `SIGTERM while PostgreSQL is paused: ${exits.map((exit, index) => `${['api', 'mcp', 'console', 'worker'][index]} ${Math.round(exit.ms)} ms (exit ${exit.code})`).join(', ')}`,
    );
    for (const [index, exit] of exits.entries())
      expect(exit.ms, `${['api', 'mcp', 'console', 'worker'][index]} exit after SIGTERM (ms)`).toBeLessThan(
        10_000,
      );
    // The servers close cleanly (their requests end at the statement timeout); the worker abandons its
    // stuck batch once its share of the budget is spent, and says so with exit code 1.
    expect(exits.slice(0, 3).map((exit) => exit.code)).toEqual([0, 0, 0]);

    // The batch the worker abandoned is retried by the next one: still nothing lost.
    await start('worker');
    await waitForConvergence(
      { db, search: { client: search.client, alias }, siteOrigin: SITE_ORIGIN, lines: ingested },
      120_000,
    );
  });
});
