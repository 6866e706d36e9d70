import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '@directory/database';
import { toSearchDocument } from '@directory/domain';
import { SITE_ORIGIN, createTestDatabase, placeState, type TestDatabase } from '@directory/testing';
import { openExport } from '../src/exports.repository.js';
import { savePlaceStates } from '../src/places.repository.js';

// An export reads each page in a statement of its own: no transaction waits for its client between
// pages, so a slow reader neither holds back vacuum nor meets the database's idle limit.
describe('store export (a short transaction per page)', () => {
  let database: TestDatabase;
  let db: Database;

  /** This database's sessions, other than the one asking, that are inside a transaction now. */
  const sessionsInTransaction = async (): Promise<number> => {
    const result = await sql<{ open: number }>`
      select count(*)::int as open from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null`.execute(
      database.db,
    );
    return result.rows[0]?.open ?? 0;
  };

  beforeAll(async () => {
    database = await createTestDatabase('store-export');
    // A new session of this private database is cut after 300 ms idle inside a transaction.
    await sql`
      do $$ begin
        execute format('alter database %I set idle_in_transaction_session_timeout = 300', current_database());
      end $$`.execute(database.db);
    db = createDatabase(database.url, { maxConnections: 2 });
    await savePlaceStates(
      db,
      ['x1', 'x2', 'x3'].map((id) => ({
        placeId: id,
        stateVersion: 1,
        document: toSearchDocument(placeState({ id, name: `Praxis ${id}` }), { siteOrigin: SITE_ORIGIN }),
      })),
    );
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it('holds no transaction while the client takes longer than the idle limit between pages', async () => {
    const opened = await openExport(db, { country: 'de' });
    const ids: string[] = [];
    for await (const page of opened.pages('', 1)) {
      ids.push(...page.map((place) => place.placeId));
      expect(await sessionsInTransaction()).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    expect(ids).toEqual(['x1', 'x2', 'x3']);
  });

  it('lists a place changed after the horizon not at all: the feed after the horizon has its new state', async () => {
    const opened = await openExport(db, { country: 'de' });
    const ids: string[] = [];
    for await (const page of opened.pages('', 1)) {
      ids.push(...page.map((place) => place.placeId));
      if (ids.length === 1) {
        await savePlaceStates(db, [
          {
            placeId: 'x3',
            stateVersion: 2,
            document: toSearchDocument(placeState({ id: 'x3', name: 'Praxis neu', version: 2 }), {
              siteOrigin: SITE_ORIGIN,
            }),
          },
        ]);
      }
    }
    expect(ids).toEqual(['x1', 'x2']);
  });
});
