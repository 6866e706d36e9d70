import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '@directory/database';
import { toSearchDocument } from '@directory/domain';
import { SITE_ORIGIN, createTestDatabase, placeState, type TestDatabase } from '@directory/testing';
import { openExport } from '../src/exports.repository.js';
import { savePlaceStates } from '../src/places.repository.js';

// An export's transaction waits for its client between pages: the database's short idle limit for
// forgotten transactions must not cut a slow reader off.
describe('store export (one read-only transaction)', () => {
  let database: TestDatabase;
  let db: Database;

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

  it('keeps its transaction while the client takes longer than the idle limit between pages', async () => {
    const opened = await openExport(db, { country: 'de' });
    const ids: string[] = [];
    for await (const page of opened.pages('', 1)) {
      ids.push(...page.map((place) => place.placeId));
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    expect(ids).toEqual(['x1', 'x2', 'x3']);
  });
});
