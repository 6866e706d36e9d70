import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeEventSchema } from '@directory/domain';
import { appendEvents } from '@directory/event-store';
import { crawled, createTestDatabase, startProcess, type TestDatabase } from '@directory/testing';
import { EventsTableBusyError, clusterEvents } from '../src/events-order.service.js';

/**
 * `directory db cluster-events`: the events table rewritten in stream order, nothing lost or changed,
 * and a table another session holds refused within the lock timeout rather than waited on.
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

  it('rewrites the table in stream order from the command, every event kept as it was', async () => {
    const before = await rowsInTableOrder();
    expect(before).toHaveLength(PLACES * CRAWLS);
    const command = startProcess('packages/operator/src/db.cli.ts', ['cluster-events'], {
      DATABASE_URL: database.url,
    });
    expect(await command.exited).toBe(0);
    expect(command.output()).toMatch(
      /cluster-events: done in [\d.]+ s: \d+ MB, place order correlation -?[\d.]+ before, 1\.00 after/,
    );
    expect(await rowsInTableOrder()).toEqual(inStreamOrder(before));
  });
});
