import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, type TestDatabase } from '@directory/testing';
import * as lagSince from '../src/migrations/0008-lag-since.js';
import * as accountTokens from '../src/migrations/0017-account-tokens.js';
import { migrateDownAll, migrateToLatest } from '../src/migrator.js';

async function tableNames(database: TestDatabase): Promise<string[]> {
  const result = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_name not like 'kysely_%' order by table_name`.execute(
    database.db,
  );
  return result.rows.map((row) => row.table_name);
}

describe('migrations', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createEmptyDatabase('migrations');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('apply, are idempotent, revert cleanly and re-apply', async () => {
    const applied = await migrateToLatest(database.db);
    expect(applied.slice(0, 2)).toEqual(['0001-event-store', '0002-accounts-and-keys']);
    expect(applied).toContain('0003-console-sessions');
    expect(await tableNames(database)).toEqual(
      expect.arrayContaining([
        'accounts',
        'api_keys',
        'console_sessions',
        'dead_letters',
        'events',
        'places',
      ]),
    );
    expect(await migrateToLatest(database.db)).toEqual([]);

    expect(await migrateDownAll(database.db)).toEqual([...applied].reverse());
    expect(await tableNames(database)).toEqual([]);

    expect(await migrateToLatest(database.db)).toHaveLength(applied.length);
    expect(await tableNames(database)).toContain('events');
  });

  it('enforces event id uniqueness in the store', async () => {
    const event = {
      event_id: 'evt-1',
      place_id: 'place-1',
      type: 'place.closed',
      occurred_at: '2026-01-01T00:00:00Z',
      schema_version: 1,
      payload: JSON.stringify({}),
    };
    await database.db.insertInto('events').values(event).execute();
    await expect(database.db.insertInto('events').values(event).execute()).rejects.toThrow(/duplicate key/);
  });

  it('stores documents over the TOAST threshold with lz4 when the server has it (0007)', async () => {
    const available = await sql<{ lz4: boolean }>`
      select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(
      database.db,
    );
    // A document of a few kilobytes, like a place's: over the ~2 KB threshold, so it is compressed.
    const document = JSON.stringify({ doctor: { name: 'Praxis '.repeat(600) } });
    await sql`insert into places (place_id, document) values ('compressed', ${document}::json)`.execute(
      database.db,
    );
    const stored = await sql<{ method: string | null }>`
      select pg_column_compression(document) as method from places where place_id = 'compressed'`.execute(
      database.db,
    );
    expect(stored.rows[0]?.method).toBe(available.rows[0]?.lz4 ? 'lz4' : 'pglz');
  });

  it('gives the places lagging when it runs the age of their oldest change missing (0008)', async () => {
    const db = database.db as unknown as Kysely<unknown>;
    await lagSince.down(db);
    // Lagging: three events, the index has the first. Caught up: one event, indexed.
    await sql`
      insert into events (event_id, place_id, type, occurred_at, schema_version, payload, recorded_at)
      values ('lag-1', 'lagging', 'place.closed', now(), 1, '{}', now() - interval '3 hours'),
             ('lag-2', 'lagging', 'place.closed', now(), 1, '{}', now() - interval '2 hours'),
             ('lag-3', 'lagging', 'place.closed', now(), 1, '{}', now() - interval '1 hour'),
             ('done-1', 'caught-up', 'place.closed', now(), 1, '{}', now() - interval '5 hours')`.execute(
      database.db,
    );
    await sql`
      insert into places (place_id, stream_version, projected_version)
      values ('lagging', 3, 1), ('caught-up', 1, 1)`.execute(database.db);
    await lagSince.up(db);

    // The lagging place's oldest change missing is its second event.
    const rows = await sql<{ place_id: string; since: string | null }>`
      select place_id, (select event_id from events where recorded_at = places.lag_since) as since
      from places where place_id in ('lagging', 'caught-up') order by place_id`.execute(database.db);
    expect(rows.rows).toEqual([
      { place_id: 'caught-up', since: null },
      { place_id: 'lagging', since: 'lag-2' },
    ]);
  });

  it('reads a snapshot page of one dataset through its own index of served places (0009)', async () => {
    // 20,000 places over the seven datasets, a tenth of them no longer served, ids in no order.
    await sql`
      insert into places (place_id, document, served, feed_country, changed_xid)
      select md5(n::text), '{"doctor": {}}', n % 10 <> 0,
             (array['de', 'es', 'fr', 'gb', 'it', 'mx', 'pt'])[n % 7 + 1], pg_current_xact_id()
      from generate_series(1, 20000) as n`.execute(database.db);
    await sql`analyze places`.execute(database.db);
    // The shape of the snapshot page (event-store readListedPlaces).
    const plan = await sql<{ 'QUERY PLAN': unknown }>`
      explain (format json)
      select place_id, document -> 'doctor' from places
      where served and feed_country = 'es' and place_id > '5'
        and changed_xid <= '999999999'::xid8 and changed_xid <> all('{}'::xid8[])
      order by place_id limit 101`.execute(database.db);
    expect(JSON.stringify(plan.rows[0]?.['QUERY PLAN'])).toContain('"Index Name":"places_feed_snapshot"');
  });

  it('treats the accounts that exist at upgrade as verified, at their creation time (0017)', async () => {
    const db = database.db as unknown as Kysely<unknown>;
    await accountTokens.down(db);
    await sql`
      insert into accounts (id, email, password_hash, created_at)
      values ('before-upgrade', 'old@example.com', '!', '2026-01-02T03:04:05Z')`.execute(database.db);
    await accountTokens.up(db);
    await sql`insert into accounts (id, email, password_hash) values ('after-upgrade', 'new@example.com', '!')`.execute(
      database.db,
    );
    const rows = await sql<{ id: string; verified: string | null }>`
      select id, to_char(email_verified_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as verified
      from accounts where id in ('before-upgrade', 'after-upgrade') order by id`.execute(database.db);
    expect(rows.rows).toEqual([
      { id: 'after-upgrade', verified: null },
      { id: 'before-upgrade', verified: '2026-01-02 03:04:05' },
    ]);
  });
});
