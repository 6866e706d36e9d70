import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  SITE_ORIGIN,
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  eventually,
  projectRawEvents,
  startProcess,
  type RunningProcess,
  type TestDatabase,
  processEnvironment,
} from '@directory/testing';

/** What the index must hold, computed from the NDJSON file alone (independently of the store). */
function expectedFromFile(path: string) {
  const expected = projectRawEvents(readFileSync(path, 'utf8').split('\n'), SITE_ORIGIN);
  const served = new Map<string, unknown>();
  for (const [placeId, row] of expected.rows) if (row.document.served) served.set(placeId, row.document);
  return { uniqueEvents: expected.uniqueEvents, invalid: expected.invalid, served };
}

describe('ingestion end to end: NDJSON → queue → worker → store → index', () => {
  let database: TestDatabase;
  const redis = createTestRedis('ingestion-e2e');
  const search = createTestSearch('ingestion-e2e');
  const alias = `${search.prefix}_doctors`;
  let workDir: string;
  let env: Record<string, string>;
  const workers: RunningProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('ingestion-e2e');
    workDir = await mkdtemp(join(tmpdir(), 'ingestion-e2e-'));
    await ensureDoctorsIndex(search.client, alias);
    env = processEnvironment(
      { databaseUrl: database.url, redisPrefix: redis.prefix, alias },
      {
        INGEST_BATCH_SIZE: '200',
        WORKER_LOCK_DURATION_MS: '3000',
        SWEEP_INTERVAL_MS: '1000',
        SWEEP_GRACE_MS: '3000',
      },
    );
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
    await rm(workDir, { recursive: true, force: true });
  });

  async function generate(count: number, seed: number): Promise<string> {
    const out = join(workDir, `events-${seed}.ndjson`);
    const generator = startProcess(
      'packages/sample-data/src/generate.cli.ts',
      ['--count', String(count), '--seed', String(seed), '--out', out],
      env,
    );
    expect(await generator.exited).toBe(0);
    return out;
  }

  function startWorker(): RunningProcess {
    const worker = startProcess('services/worker/src/main.ts', [], env);
    workers.push(worker);
    return worker;
  }

  async function indexedDocuments(): Promise<Map<string, unknown>> {
    await search.client.indices.refresh({ index: alias });
    const documents = new Map<string, unknown>();
    const response = await search.client.search<Record<string, unknown>>({
      index: alias,
      size: 10_000,
      query: { term: { served: true } },
    });
    for (const hit of response.hits.hits) documents.set(hit._id ?? '', hit._source);
    return documents;
  }

  async function assertConverged(expected: ReturnType<typeof expectedFromFile>) {
    const events = await database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(events.count)).toBe(expected.uniqueEvents);
    const documents = await indexedDocuments();
    expect(documents.size).toBe(expected.served.size);
    for (const [placeId, document] of expected.served) expect(documents.get(placeId)).toEqual(document);
  }

  it('indexes exactly the served places, stores duplicates once and dead-letters invalid events', async () => {
    const file = await generate(3_000, 7);
    const expected = expectedFromFile(file);
    expect(expected.invalid).toBeGreaterThan(0);
    expect(expected.served.size).toBeGreaterThan(50);

    const worker = startWorker();
    await worker.waitForOutput(/worker started/);
    const ingest = startProcess('packages/ingest/src/ingest.cli.ts', [file, '--wait'], env);
    expect(await ingest.exited, ingest.output()).toBe(0);
    expect(ingest.output()).toMatch(/rejected \(sent to dead letters\)/);
    expect(ingest.output()).toMatch(/line \d+: rejected \(/);

    await assertConverged(expected);
    const letters = await database.db.selectFrom('dead_letters').select(['reason', 'raw']).execute();
    expect(letters).toHaveLength(expected.invalid);
    for (const letter of letters) expect(letter.reason.length).toBeGreaterThan(3);

    // Suppressed, closed and unpublished places are absent: only served ones are in the index.
    const notServed = await database.db
      .selectFrom('places')
      .select('place_id')
      .where('served', '=', false)
      .execute();
    const documents = await indexedDocuments();
    for (const row of notServed) expect(documents.has(row.place_id)).toBe(false);

    expect(await worker.stop('SIGTERM')).toBe(0);
    expect(worker.output()).toMatch(/worker stopped/);
  });

  it('converges after a worker is SIGKILLed mid-batch and another takes over, storing nothing twice', async () => {
    const file = await generate(6_000, 11);
    const alreadyStored = expectedFromFile(join(workDir, 'events-7.ndjson')).uniqueEvents;
    const first = startWorker();
    await first.waitForOutput(/worker started/);
    const ingest = startProcess('packages/ingest/src/ingest.cli.ts', [file], env);
    expect(await ingest.exited, ingest.output()).toBe(0);

    // Kill the worker once it is part-way through the queue.
    await eventually(
      async () => {
        const row = await database.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .executeTakeFirstOrThrow();
        return Number(row.count) > alreadyStored + 1_000;
      },
      60_000,
      'the first worker to store some events',
    );
    await first.stop('SIGKILL');

    const second = startWorker();
    await second.waitForOutput(/worker started/);
    const expectedAll = expectedFromFile(file);
    const firstFile = expectedFromFile(join(workDir, 'events-7.ndjson'));
    await eventually(
      async () => {
        const lagging = await database.db
          .selectFrom('places')
          .select('place_id')
          .where('projected_version', '<', (eb) => eb.ref('stream_version'))
          .execute();
        const events = await database.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .executeTakeFirstOrThrow();
        return (
          lagging.length === 0 && Number(events.count) === expectedAll.uniqueEvents + firstFile.uniqueEvents
        );
      },
      90_000,
      'the second worker to finish the queue',
    );
    const documents = await indexedDocuments();
    for (const [placeId, document] of expectedAll.served) expect(documents.get(placeId)).toEqual(document);
    expect(documents.size).toBe(expectedAll.served.size + firstFile.served.size);
    await second.stop('SIGTERM');
  });
});
