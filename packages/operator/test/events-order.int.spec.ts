import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeEventSchema } from '@directory/domain';
import { appendEvents } from '@directory/event-store';
import { crawled, createTestDatabase, eventually, startProcess, type TestDatabase } from '@directory/testing';
import { EventsTableBusyError, clusterEvents } from '../src/events-order.service.js';

/**
 * `directory db cluster-events`: the events table rewritten in stream order, nothing lost or changed,
 * either through the index (`--through-index`) or by PostgreSQL's sort, a table another session holds
 * refused within the lock timeout rather than waited on, and a stopped command's rewrite cancelled.
 */
describe('the events table in stream order', () => {
  let database: TestDatabase;
  const PLACES = 30;
  const CRAWLS = 4;

  beforeAll(async () => {
    database = await createTestDatabase('events-order');
    // Weekly recrawls of every place, appended round by round as a crawl delivers them: each place's
    // stream is spread over the whole table.
    for (let crawl = 1; crawl <= CRAWLS; crawl += 1) {
      const day = String(crawl).padStart(2, '0');
      const raws = Array.from({ length: PLACES }, (_, place) =>
        crawled(`pl-${String(place).padStart(3, '0')}`, crawl, `2026-03-${day}T08:00:00.000Z`),
      );
      await appendEvents(
        database.db,
        raws.map((raw) => placeEventSchema.parse(raw)),
      );
    }
  });
  afterAll(() => database.drop());

  type Row = { place_id: string; position: string; event_id: string; payload: unknown };
  const rowsInTableOrder = async () =>
    (
      await sql<Row>`select place_id, position, event_id, payload from events order by ctid`.execute(
        database.db,
      )
    ).rows;
  const inStreamOrder = (rows: Row[]) =>
    [...rows].sort((a, b) =>
      a.place_id === b.place_id ? Number(a.position) - Number(b.position) : a.place_id < b.place_id ? -1 : 1,
    );

  it('refuses a table another session holds, within its lock timeout, and changes nothing', async () => {
    const before = await rowsInTableOrder();
    await database.db.transaction().execute(async (trx) => {
      await sql`lock table events in access share mode`.execute(trx);
      await expect(clusterEvents(database.db, { lockTimeoutMs: 200 })).rejects.toBeInstanceOf(
        EventsTableBusyError,
      );
    });
    expect(await rowsInTableOrder()).toEqual(before);
    expect(before).not.toEqual(inStreamOrder(before));
  });

  /** Whether a rewrite is on the server, and whether it waits for the table's lock. */
  const rewriteOnServer = async () => {
    const result = await sql<{ running: boolean; waiting: boolean }>`
      select count(*) > 0 as running, bool_or(wait_event_type = 'Lock') is true as waiting
      from pg_stat_activity where query like 'cluster events%'`.execute(database.db);
    return result.rows[0] ?? { running: false, waiting: false };
  };

  it('cancels the rewrite on the server when the command is stopped (Ctrl-C), and leaves the table as it was', async () => {
    const before = await rowsInTableOrder();
    // The rewrite waits for a reader's lock; a client that merely went away would leave it waiting, to
    // run once the reader is done.
    const command = await database.db.transaction().execute(async (trx) => {
      await sql`lock table events in access share mode`.execute(trx);
      const started = startProcess('packages/operator/src/db.cli.ts', ['cluster-events'], {
        DATABASE_URL: database.url,
      });
      await eventually(async () => (await rewriteOnServer()).waiting, 10_000, 'the rewrite waiting');
      started.child.kill('SIGINT');
      expect(await started.exited).toBe(1);
      expect((await rewriteOnServer()).running).toBe(false);
      return started;
    });
    expect(command.output()).toMatch(/cluster-events: stopping: cancelling the rewrite on the server/);
    expect(command.output()).toMatch(/cluster-events: cancelled: .* the events table is as it was/);
    expect(await rowsInTableOrder()).toEqual(before);
  });

  // Index scans of events_place_position so far: a rewrite through the index reads it once. The count
  // reaches the statistics when the rewriting session ends.
  const placeIndexScans = async () => {
    await sql`select pg_stat_clear_snapshot()`.execute(database.db);
    const result = await sql<{ scans: string }>`
      select idx_scan as scans from pg_stat_user_indexes where indexrelname = 'events_place_position'`.execute(
      database.db,
    );
    return Number(result.rows[0]?.scans ?? 0);
  };

  it("rewrites the table in stream order from the command, through the index, every event kept as it was, past a job's statement bound", async () => {
    const before = await rowsInTableOrder();
    expect(before).toHaveLength(PLACES * CRAWLS);
    const scansBefore = await placeIndexScans();
    const JOB_STATEMENT_TIMEOUT_MS = 300;
    // A reader holds the table while the rewrite waits for it: the rewrite's one statement then outlasts
    // a job's statement bound, as a rewrite of millions of events does, and must not be cut short by it.
    const command = await database.db.transaction().execute(async (trx) => {
      await sql`lock table events in access share mode`.execute(trx);
      const started = startProcess('packages/operator/src/db.cli.ts', ['cluster-events', '--through-index'], {
        DATABASE_URL: database.url,
        DATABASE_JOB_STATEMENT_TIMEOUT_MS: String(JOB_STATEMENT_TIMEOUT_MS),
      });
      await eventually(
        async () => (await rewriteOnServer()).waiting,
        10_000,
        'the rewrite waiting for the table',
      );
      await new Promise((resolve) => setTimeout(resolve, 3 * JOB_STATEMENT_TIMEOUT_MS));
      return started;
    });
    expect(await command.exited).toBe(0);
    expect(command.output()).toMatch(
      /cluster-events: rewriting the events table in stream order; needs about [\d.]+ GB of free disk \(the new copy of the table and its indexes\)/,
    );
    expect(command.output()).toMatch(
      /cluster-events: done in [\d.]+ s: \d+ MB, place order correlation -?[\d.]+ before, 1\.00 after/,
    );
    expect(await rowsInTableOrder()).toEqual(inStreamOrder(before));
    await eventually(async () => (await placeIndexScans()) > scansBefore, 5_000, 'the index scan counted');
  });

  it("rewrites a scattered table by PostgreSQL's own plan when not told to read the index", async () => {
    // Back to crawl order: the global position is the order events were appended in.
    await sql`cluster events using events_pkey`.execute(database.db);
    const before = await rowsInTableOrder();
    expect(before).not.toEqual(inStreamOrder(before));
    const outcome = await clusterEvents(database.db);
    expect(await rowsInTableOrder()).toEqual(inStreamOrder(before));
    expect(outcome.orderAfter).toBe(1);
  });
});
