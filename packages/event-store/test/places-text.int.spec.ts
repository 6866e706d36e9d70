import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@directory/database';
import {
  documentDigest,
  placeEventSchema,
  toSearchDocument,
  type PlaceEvent,
  type PlaceProjection,
} from '@directory/domain';
import { SITE_ORIGIN, crawled, createTestDatabase, placeState, type TestDatabase } from '@directory/testing';
import { appendEvents, readPageStreams, readStreams } from '../src/events.repository.js';
import {
  documentDigestInDatabase,
  replacePlaceStates,
  savePlaceStates,
  streamProjections,
} from '../src/places.repository.js';

/** A name holding what a text protocol could mangle: quotes, backslashes, a newline, a tab, emoji, U+2028. */
const AWKWARD = 'Praxis "Dr. Ö\\Ü"\nzweite Zeile\tTab 🦷 \u2028 Ende';

function placeRow(placeId: string, version: number, name: string): PlaceProjection {
  const state = placeState({ id: placeId, name, version, country: 'de' });
  return { placeId, stateVersion: version, document: toSearchDocument(state, { siteOrigin: SITE_ORIGIN }) };
}

/** The `n`th crawl of a place, as the store takes it. */
function crawl(placeId: string, n: number): PlaceEvent {
  return placeEventSchema.parse(crawled(placeId, n, '2026-11-01T10:00:00.000Z'));
}

async function storedDocuments(db: Database): Promise<Map<string, string>> {
  const stored = new Map<string, string>();
  for await (const page of streamProjections(db)) {
    for (const row of page) stored.set(row.placeId, row.documentJson);
  }
  return stored;
}

describe('places and events as they travel to PostgreSQL and back', () => {
  let database: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    database = await createTestDatabase('places-text');
    db = database.db;
  });
  afterAll(() => database.drop());

  it('stores every document as the exact text JSON.stringify made of it, awkward characters included', async () => {
    const rows = [
      placeRow('p-1', 1, AWKWARD),
      placeRow('p-2', 1, 'Plain'),
      placeRow('p-3', 1, `${AWKWARD}\n`),
    ];
    await savePlaceStates(db, rows);
    const replayed = placeRow('p-2', 1, `${AWKWARD} (refolded)`);
    await replacePlaceStates(db, [{ ...replayed, documentJson: JSON.stringify(replayed.document) }]);

    const stored = await storedDocuments(db);
    expect(stored.get('p-1')).toBe(JSON.stringify(rows[0]?.document));
    expect(stored.get('p-2')).toBe(JSON.stringify(replayed.document));
    expect(stored.get('p-3')).toBe(JSON.stringify(rows[2]?.document));
    const parsed = JSON.parse(stored.get('p-1') ?? '{}') as { doctor: { name: string } };
    expect(parsed.doctor.name).toBe(AWKWARD);
    // The digest written with each document is the one PostgreSQL computes from the stored text.
    const digests = await sql<{ place_id: string; kept: string; computed: string }>`
      select place_id, encode(document_digest, 'hex') as kept,
             encode(${documentDigestInDatabase(sql.ref('document'))}, 'hex') as computed
      from places where place_id like 'p-%' order by place_id`.execute(db);
    expect(digests.rows.map((row) => row.place_id)).toEqual(['p-1', 'p-2', 'p-3']);
    for (const row of digests.rows) expect(row.kept).toBe(row.computed);
    expect(digests.rows[1]?.kept).toBe(documentDigest(JSON.stringify(replayed.document)));
  });

  it('hands each stream back in store order, whatever order the places and events were stored in', async () => {
    // Interleaved over several appends, so the two streams' rows lie mixed in the table.
    await appendEvents(db, [crawl('s-b', 1), crawl('s-a', 1)]);
    await appendEvents(db, [crawl('s-a', 2)]);
    await appendEvents(db, [crawl('s-b', 2), crawl('s-a', 3)]);

    const streams = await readStreams(db, ['s-a', 's-b', 's-none']);
    expect([...streams.keys()].sort()).toEqual(['s-a', 's-b']);
    expect(streams.get('s-a')?.map((stored) => stored.eventId)).toEqual([
      's-a-crawl-1',
      's-a-crawl-2',
      's-a-crawl-3',
    ]);
    expect(streams.get('s-b')?.map((stored) => stored.eventId)).toEqual(['s-b-crawl-1', 's-b-crawl-2']);
    const positions = streams.get('s-a')?.map((stored) => stored.position) ?? [];
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('reads a page of place ids as one range of keys, leaving out a place stored inside it after the page', async () => {
    await appendEvents(db, [crawl('r-a', 1), crawl('r-b', 1), crawl('r-c', 1)]);
    const page = ['r-a', 'r-b'];
    // Stored after the page was read: inside its range of keys, not on it.
    await appendEvents(db, [crawl('r-a', 2), crawl('r-ab', 1)]);

    const streams = await readPageStreams(db, page);
    expect([...streams.keys()].sort()).toEqual(page);
    expect(streams.get('r-a')?.map((stored) => stored.eventId)).toEqual(['r-a-crawl-1', 'r-a-crawl-2']);
    expect(streams).toEqual(await readStreams(db, page));
    expect(await readPageStreams(db, [])).toEqual(new Map());
  });

  it('hands each instant back as the UTC text toISOString makes of it, whatever offset it came with', async () => {
    const instants = [
      '2026-11-01T12:00:00+02:00',
      '2026-11-01T10:00:00.5Z',
      '2026-11-01T10:00:00.123456Z',
      '0999-12-31T23:59:59.999Z',
    ];
    const events = instants.map(
      (occurredAt, index) =>
        ({
          eventId: `t-${index}`,
          placeId: `instants-${index}`,
          type: 'place.crawled',
          occurredAt,
          schemaVersion: 1,
          payload: { name: 'n' },
        }) as unknown as PlaceEvent,
    );
    await appendEvents(db, events);

    const streams = await readStreams(
      db,
      events.map((event) => event.placeId),
    );
    const readBack = instants.map((_, index) => streams.get(`instants-${index}`)?.[0]?.occurredAt);
    expect(readBack).toEqual(instants.map((instant) => new Date(instant).toISOString()));
  });
});
