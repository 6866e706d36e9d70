import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@directory/database';
import { toSearchDocument, type PlaceProjection, type SearchDocument } from '@directory/domain';
import { SITE_ORIGIN, createTestDatabase, placeState, type TestDatabase } from '@directory/testing';
import { replacePlaceStates, savePlaceStates } from '../src/places.repository.js';

function served(
  placeId: string,
  version: number,
  name: string,
): PlaceProjection & { document: SearchDocument } {
  const document = toSearchDocument(placeState({ id: placeId, name, version, country: 'de' }), {
    siteOrigin: SITE_ORIGIN,
  });
  if (!document.served) throw new Error('the fixture place is served');
  return { placeId, stateVersion: version, document };
}

/** The same place as a refold that changed a search field only (nothing a feed consumer sees). */
function refoldedSearchText(row: PlaceProjection & { document: SearchDocument }): PlaceProjection {
  return { ...row, document: { ...row.document, searchText: `${row.document.searchText} refolded` } };
}

const replay = (db: Database, row: PlaceProjection) =>
  replacePlaceStates(db, [{ ...row, documentJson: JSON.stringify(row.document) }]);

type Stored = {
  /** The row version: moves with every write of the row. */
  xmin: string;
  changed_xid: string | null;
  document: string;
  document_digest: Buffer | null;
  doctor_digest: Buffer | null;
  text_digest: Buffer;
  doctor_text_digest: Buffer | null;
};

async function stored(db: Database, placeId: string): Promise<Stored> {
  const result = await sql<Stored>`
    select xmin::text as xmin, changed_xid::text as changed_xid, document::text as document,
           document_digest, doctor_digest,
           sha256(convert_to(document::text, 'UTF8')) as text_digest,
           sha256(convert_to((document -> 'doctor')::text, 'UTF8')) as doctor_text_digest
    from places where place_id = ${placeId}`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error(`no row for ${placeId}`);
  return row;
}

describe('the places upsert compares documents by digests computed in Node', () => {
  let database: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    database = await createTestDatabase('place-digests');
    db = database.db;
  });
  afterAll(() => database.drop());

  it('stores the digests PostgreSQL computes of the stored text and of its doctor (none for a tombstone)', async () => {
    await savePlaceStates(db, [served('d-1', 1, 'Praxis "Dr. Ö\\Ü"\n🦷 \u2028 Ende')]);
    const row = await stored(db, 'd-1');
    expect(row.document_digest).toEqual(row.text_digest);
    expect(row.doctor_digest).toEqual(row.doctor_text_digest);
    expect(row.doctor_digest).toHaveLength(32);

    const tombstone = toSearchDocument(placeState({ id: 'd-2', name: 'Praxis', suppressed: true }), {
      siteOrigin: SITE_ORIGIN,
    });
    await savePlaceStates(db, [{ placeId: 'd-2', stateVersion: 1, document: tombstone }]);
    const removed = await stored(db, 'd-2');
    expect(removed.document_digest).toEqual(removed.text_digest);
    expect(removed.doctor_digest).toBeNull();
  });

  it('neither rewrites nor moves the feed for the same document again', async () => {
    const row = served('s-1', 1, 'Praxis Same');
    await savePlaceStates(db, [row]);
    const before = await stored(db, 's-1');

    await replay(db, row);
    expect(await stored(db, 's-1')).toEqual(before);

    // A re-crawl with identical data: a newer version is written, but the feed does not move.
    await savePlaceStates(db, [{ ...row, stateVersion: 2 }]);
    const recrawled = await stored(db, 's-1');
    expect(recrawled.xmin).not.toBe(before.xmin);
    expect(recrawled.changed_xid).toBe(before.changed_xid);
  });

  it('moves the feed when the doctor changes', async () => {
    await savePlaceStates(db, [served('c-1', 1, 'Praxis Alt')]);
    const before = await stored(db, 'c-1');
    await savePlaceStates(db, [served('c-1', 2, 'Praxis Neu')]);
    const after = await stored(db, 'c-1');
    expect(after.changed_xid).not.toBe(before.changed_xid);
    expect(after.doctor_digest).not.toEqual(before.doctor_digest);
  });

  it('rewrites a replayed row whose non-doctor part changed, without moving the feed', async () => {
    const row = served('r-1', 1, 'Praxis Replay');
    await savePlaceStates(db, [row]);
    const before = await stored(db, 'r-1');

    const refolded = refoldedSearchText(row);
    await replay(db, refolded);
    const after = await stored(db, 'r-1');
    expect(after.xmin).not.toBe(before.xmin);
    expect(after.document).toBe(JSON.stringify(refolded.document));
    expect(after.document_digest).toEqual(after.text_digest);
    expect(after.changed_xid).toBe(before.changed_xid);
  });

  it('compares a row without digests (written before them) by text, and gives it digests when it is written', async () => {
    const row = served('n-1', 1, 'Praxis Ohne');
    await savePlaceStates(db, [row]);
    const written = await stored(db, 'n-1');
    await sql`update places set document_digest = null, doctor_digest = null where place_id = 'n-1'`.execute(
      db,
    );
    const withoutDigests = await stored(db, 'n-1');

    // The same document: by text it is unchanged, so nothing is written.
    await replay(db, row);
    expect(await stored(db, 'n-1')).toEqual(withoutDigests);
    // Same doctor, newer version: written (with its digests), and the feed does not move.
    await savePlaceStates(db, [{ ...row, stateVersion: 2 }]);
    const recrawled = await stored(db, 'n-1');
    expect(recrawled.changed_xid).toBe(written.changed_xid);
    expect(recrawled.document_digest).toEqual(recrawled.text_digest);
    expect(recrawled.doctor_digest).toEqual(recrawled.doctor_text_digest);

    // A non-doctor change on replay: rewritten, the feed does not move.
    await sql`update places set document_digest = null, doctor_digest = null where place_id = 'n-1'`.execute(
      db,
    );
    const refolded = refoldedSearchText({ ...row, stateVersion: 2 });
    await replay(db, refolded);
    const replayed = await stored(db, 'n-1');
    expect(replayed.document).toBe(JSON.stringify(refolded.document));
    expect(replayed.changed_xid).toBe(written.changed_xid);

    // A doctor change: the feed moves.
    await sql`update places set document_digest = null, doctor_digest = null where place_id = 'n-1'`.execute(
      db,
    );
    await savePlaceStates(db, [served('n-1', 3, 'Praxis Neu')]);
    expect((await stored(db, 'n-1')).changed_xid).not.toBe(written.changed_xid);
  });
});
