import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '@directory/database';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  createTestRedis,
  createTestSearch,
  eventually,
  freePort,
  scrapeMetrics,
  startPgBouncer,
  startPrivatePostgres,
  startPrivateStandby,
  startProcess,
  waitForConvergence,
  type PrivatePgBouncer,
  type PrivatePostgres,
  type PrivateStandby,
  type RunningProcess,
} from '@directory/testing';
import { sampleLines } from '../faults/store-pipeline.fixture.js';
import {
  createLoadKey,
  faultEnvironment,
  lastOutput,
  searchRequest,
  startService,
  type RunningService,
} from '../faults/service-processes.fixture.js';

const lines = sampleLines(900, 11);
// Kept: replayed by the standby before the failover. Lost: committed and projected on the old primary,
// never received by the standby. After: stored on the promoted standby once the index is repaired.
const KEPT = lines.slice(0, 300);
const LOST = lines.slice(300, 600);
const AFTER = lines.slice(600);
const REPAIR = 'npm run reindex -- --replay';
const PASSWORD = 'correct horse battery';

/**
 * A primary and its asynchronous streaming standby (private clusters), PgBouncer in transaction mode in
 * front, and the worker, API and console connected through it only. The standby stops receiving WAL, the
 * primary commits (and the index reflects) more events, the primary dies and the standby is promoted: the
 * store went back in time. That must be flagged (status, worker readiness, metric), never silent, and
 * `reindex --replay` must make the index a replay of the store again.
 */
describe('PostgreSQL behind PgBouncer (transaction mode): a failover to a standby that missed commits', () => {
  let primary: PrivatePostgres;
  let standby: PrivateStandby;
  let pooler: PrivatePgBouncer;
  let primaryDb: Database;
  let pooledDb: Database;
  const redis = createTestRedis('pg-standby');
  const search = createTestSearch('pg-standby');
  const alias = `${search.prefix}_doctors`;
  let env: Record<string, string>;
  let workDir: string;
  let workerOps: string;
  const services: RunningService[] = [];
  const commands: RunningProcess[] = [];

  beforeAll(async () => {
    primary = await startPrivatePostgres('standby-primary');
    standby = await startPrivateStandby(primary.port, 'standby');
    pooler = await startPgBouncer(primary.port, 'standby');
    primaryDb = createDatabase(primary.url, { maxConnections: 1 });
    pooledDb = createDatabase(pooler.url, { maxConnections: 2 });
    await ensureDoctorsIndex(search.client, alias);
    workDir = await mkdtemp(join(tmpdir(), 'pg-standby-'));
    const opsPort = await freePort();
    workerOps = `http://127.0.0.1:${opsPort}`;
    env = faultEnvironment({
      // Every process reaches PostgreSQL through the pooler only.
      DATABASE_URL: pooler.url,
      REDIS_PREFIX: redis.prefix,
      ELASTICSEARCH_INDEX: alias,
      INGEST_BATCH_SIZE: '100',
      INGEST_RETRY_DELAY_MS: '200',
      INGEST_RETRY_MAX_DELAY_MS: '1000',
      WORKER_OPS_PORT: String(opsPort),
      SEARCH_CACHE: 'off',
    });
  });
  afterAll(async () => {
    await Promise.all(
      [...services.map((service) => service.process), ...commands].map((p) => p.stop('SIGKILL')),
    );
    await pooledDb?.destroy();
    await primaryDb?.destroy();
    await redis.cleanup();
    await search.cleanup();
    await pooler?.destroy();
    await standby?.destroy();
    await primary?.destroy();
    await rm(workDir, { recursive: true, force: true });
  });

  beforeEach((context) => {
    context.onTestFailed(() => console.error(lastOutput(services)));
  });

  async function run(entry: string, args: string[]): Promise<{ code: number | null; output: string }> {
    const command = startProcess(entry, args, env);
    commands.push(command);
    const code = await command.exited;
    return { code, output: command.output() };
  }

  async function ingest(batch: ReadonlyArray<string>, name: string): Promise<void> {
    const file = join(workDir, `${name}.ndjson`);
    await writeFile(file, `${batch.join('\n')}\n`);
    const result = await run('packages/ingest/src/ingest.cli.ts', [file, '--wait']);
    expect(result.code, result.output).toBe(0);
  }

  /** Signs up or in on the console process (a real form post with its CSRF token); the redirect. */
  async function consoleForm(base: string, path: '/sign-up' | '/sign-in', email: string) {
    const form = await fetch(`${base}${path}`);
    const cookie = form.headers
      .getSetCookie()
      .map((header) => header.split(';')[0])
      .join('; ');
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: PASSWORD, _csrf: token }).toString(),
    });
    return { status: response.status, location: response.headers.get('location') };
  }

  const readyz = async () => {
    const response = await fetch(`${workerOps}/readyz`);
    return { status: response.status, body: await response.text() };
  };

  it('works through the pooler, flags the store going back in time, and is repaired by a replay', async () => {
    // Sessions through the pooler get the server-side defaults the migration set, and nothing else.
    const jit = await pooledDb
      .selectNoFrom((eb) => eb.fn<string>('current_setting', [eb.val('jit')]).as('value'))
      .executeTakeFirstOrThrow();
    expect(jit.value).toBe('off');

    const worker = await startService('worker', env);
    const api = await startService('api', env);
    const consoleService = await startService('console', env);
    services.push(worker, api, consoleService);

    await ingest(KEPT, 'kept');
    const secret = await createLoadKey(primaryDb);
    const searchOnce = searchRequest(api.base, secret);
    expect((await searchOnce()).status).toBe(200);
    expect(await consoleForm(consoleService.base, '/sign-up', 'standby@example.com')).toEqual({
      status: 303,
      location: '/keys',
    });
    await eventually(async () => (await readyz()).status === 200, 30_000, 'the worker to be ready');

    // Asynchronous replication falls behind: the standby has everything so far, then nothing more.
    await standby.catchUp(primary.url);
    await standby.stopReceiving();
    await ingest(LOST, 'lost');

    // The primary dies; the standby is promoted with what it has and the pooler pointed at it.
    await primary.kill();
    await standby.promote();
    await pooler.retarget(standby.port);

    // Flagged, never silent: the worker is not ready (and takes no jobs), the metric says so, and
    // `npm run status` exits 1 naming the repair.
    // Right after the promotion the worker may also be not ready for a slow PostgreSQL answer: wait for
    // the answer that names the store position and its repair.
    let notReady = { status: 0, body: '' };
    await eventually(
      async () => {
        notReady = await readyz();
        return notReady.status === 503 && notReady.body.includes(REPAIR);
      },
      60_000,
      'the worker to be not ready, naming the repair',
    );
    expect(notReady.body).toContain('store-position');
    const metrics = await scrapeMetrics(`${workerOps}/metrics`);
    expect(metrics.value('directory_store_behind_index')).toBe(1);
    const status = await run('packages/operator/src/status.cli.ts', []);
    expect(status.code, status.output).toBe(1);
    expect(status.output).toContain('went back in time');
    expect(status.output).toContain(REPAIR);

    // The API and the console keep working through the pooler on the promoted standby.
    await eventually(async () => (await searchOnce()).status === 200, 30_000, 'a search to answer 200');
    expect(await consoleForm(consoleService.base, '/sign-in', 'standby@example.com')).toEqual({
      status: 303,
      location: '/keys',
    });

    // The repair: a new index replayed from the store, alias swapped.
    const reindex = await run('packages/operator/src/reindex.cli.ts', ['--replay']);
    expect(reindex.code, reindex.output).toBe(0);
    await eventually(async () => (await readyz()).status === 200, 30_000, 'the worker to be ready again');
    expect((await scrapeMetrics(`${workerOps}/metrics`)).value('directory_store_behind_index')).toBe(0);

    // Ingestion resumes on the new primary, and the index equals a replay of the store.
    await ingest(AFTER, 'after');
    await waitForConvergence(
      {
        db: pooledDb,
        search: { client: search.client, alias },
        siteOrigin: env.SITE_ORIGIN ?? '',
        lines: [...KEPT, ...AFTER],
      },
      60_000,
    );
    const after = await run('packages/operator/src/status.cli.ts', []);
    expect(after.output).not.toContain('went back in time');
  });
});
