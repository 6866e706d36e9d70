import { sql, type RawBuilder } from 'kysely';
import type { Database } from '@directory/database';
import type { PlaceEvent, StoredPlaceEvent } from '@directory/domain';
import { columnOf, jsonColumnOf } from './row-binding.js';

export type AppendResult = {
  /** Events stored by this call, with the positions the database gave them. */
  stored: Array<{ eventId: string; placeId: string; position: number }>;
  /** Event ids already in the store (or repeated within the batch): stored once, reported as such. */
  duplicates: string[];
  /**
   * Places whose whole stream is what this call stored (new places, typically), with that stream as
   * `readStreams` would return it: folding them needs no read-back.
   */
  completeStreams: Map<string, StoredPlaceEvent[]>;
};

// Bounded statement size for very large batches.
const ROWS_PER_INSERT = 5_000;

/** Appends a batch in multi-row inserts; `event_id` is the idempotency key, so re-sending is a no-op. */
export async function appendEvents(db: Database, events: ReadonlyArray<PlaceEvent>): Promise<AppendResult> {
  const unique = new Map<string, PlaceEvent>();
  const duplicates: string[] = [];
  for (const event of events) {
    if (unique.has(event.eventId)) duplicates.push(event.eventId);
    else unique.set(event.eventId, event);
  }
  // Sorted by event id: concurrent batches that share duplicates then insert them in the same order and
  // cannot deadlock on each other's unique-index entries.
  const sorted = [...unique.values()].sort((a, b) =>
    a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0,
  );
  const stored: AppendResult['stored'] = [];
  // Each place's stream length right after this call's last insert touching it.
  const streamVersions = new Map<string, number>();
  for (let start = 0; start < sorted.length; start += ROWS_PER_INSERT) {
    const chunk = sorted.slice(start, start + ROWS_PER_INSERT);
    // Appending and bumping each place's stream version happen in one statement: a place whose events
    // were stored is visibly behind until a fold catches up, even if the job that stored them is lost.
    const inserted = await sql<{
      event_id: string;
      place_id: string;
      position: number;
      stream_version: number;
    }>`
      with inserted as (
        insert into events (event_id, place_id, type, occurred_at, schema_version, payload)
        select event_id, place_id, type, occurred_at, schema_version, payload
        from unnest(${columnOf(chunk, (event) => event.eventId)}::text[],
                    ${columnOf(chunk, (event) => event.placeId)}::text[],
                    ${columnOf(chunk, (event) => event.type)}::text[],
                    ${columnOf(chunk, (event) => event.occurredAt)}::timestamptz[],
                    ${columnOf(chunk, (event) => event.schemaVersion)}::int[],
                    ${jsonColumnOf(chunk.map((event) => JSON.stringify(event.payload)))})
          as x(event_id, place_id, type, occurred_at, schema_version, payload)
        on conflict (event_id) do nothing
        returning event_id, place_id, position
      ), bumped as (
        -- A place that was caught up starts to lag with these events, stored at now() (migration 0008).
        insert into places (place_id, stream_version, lag_since)
        select place_id, count(*), now() from inserted group by place_id order by place_id
        on conflict (place_id) do update set
          stream_version = places.stream_version + excluded.stream_version,
          lag_since = case when places.projected_version >= places.stream_version then excluded.lag_since
                           else places.lag_since end
        returning place_id, stream_version
      )
      select event_id, place_id, position, stream_version from inserted join bumped using (place_id)`.execute(
      db,
    );
    for (const row of inserted.rows) {
      stored.push({ eventId: row.event_id, placeId: row.place_id, position: row.position });
      streamVersions.set(row.place_id, Number(row.stream_version));
    }
  }
  const storedIds = new Set(stored.map((event) => event.eventId));
  for (const eventId of unique.keys()) if (!storedIds.has(eventId)) duplicates.push(eventId);
  return { stored, duplicates, completeStreams: completeStreamsOf(stored, unique, streamVersions) };
}

/**
 * A place's stream is complete in hand when its stream version (bumped under the place's row lock, in
 * the statement that inserted) equals the number of events this call stored for it: no other event of
 * the place exists, committed or not.
 */
function completeStreamsOf(
  stored: AppendResult['stored'],
  events: ReadonlyMap<string, PlaceEvent>,
  streamVersions: ReadonlyMap<string, number>,
): Map<string, StoredPlaceEvent[]> {
  const streams = new Map<string, StoredPlaceEvent[]>();
  for (const { eventId, placeId, position } of stored) {
    const event = events.get(eventId);
    if (event === undefined) continue;
    const storedEvent: StoredPlaceEvent = { ...event, occurredAt: storedInstant(event.occurredAt), position };
    const stream = streams.get(placeId);
    if (stream) stream.push(storedEvent);
    else streams.set(placeId, [storedEvent]);
  }
  for (const [placeId, stream] of streams) {
    if (streamVersions.get(placeId) !== stream.length) streams.delete(placeId);
    else stream.sort((a, b) => a.position - b.position);
  }
  return streams;
}

const CANONICAL_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** An instant as a timestamptz column reads back (UTC, milliseconds); most arrive in that form already. */
function storedInstant(occurredAt: string): string {
  return CANONICAL_INSTANT.test(occurredAt) ? occurredAt : new Date(occurredAt).toISOString();
}

/** `to_char` pattern of `Date.prototype.toISOString` for UTC instants. */
const ISO_INSTANT_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';

/** Every stored event of the given places, grouped by place, in store order. */
export async function readStreams(
  db: Database,
  placeIds: ReadonlyArray<string>,
): Promise<Map<string, StoredPlaceEvent[]>> {
  if (placeIds.length === 0) return new Map();
  return streamsWhere(db, sql<boolean>`place_id = any(${sql.val([...placeIds])}::text[])`);
}

/**
 * `readStreams` of a page of `allPlaceIds`: places consecutive in key order, so their events are one
 * range of `events_place_position`, read with one search of the index instead of one a place (for a
 * page of 1,000 places, about 4,000 fewer index pages visited). A place stored inside the range after
 * the page was read is not the page's, and is left out.
 */
export async function readPageStreams(
  db: Database,
  page: ReadonlyArray<string>,
): Promise<Map<string, StoredPlaceEvent[]>> {
  const first = page[0];
  const last = page.at(-1);
  if (first === undefined || last === undefined) return new Map();
  const streams = await streamsWhere(db, sql<boolean>`place_id between ${first} and ${last}`);
  const onPage = new Set(page);
  for (const placeId of streams.keys()) if (!onPage.has(placeId)) streams.delete(placeId);
  return streams;
}

async function streamsWhere(
  db: Database,
  condition: RawBuilder<boolean>,
): Promise<Map<string, StoredPlaceEvent[]>> {
  // Not ordered by the database: a replay page's events outgrow work_mem and PostgreSQL would sort them
  // on disk (three quarters of the query's time); each stream is put in store order here instead.
  const rows = await db
    .selectFrom('events')
    .select(['position', 'event_id', 'place_id', 'type', 'schema_version', 'payload'])
    // The instant as the text the event carried (UTC, milliseconds), not a Date parsed only to be
    // printed again.
    .select(sql<string>`to_char(occurred_at at time zone 'UTC', ${ISO_INSTANT_FORMAT})`.as('occurred_at'))
    .where(condition)
    .execute();
  const streams = new Map<string, StoredPlaceEvent[]>();
  for (const row of rows) {
    // Rows were validated before they were appended; the store hands them back as they went in.
    const event = {
      eventId: row.event_id,
      placeId: row.place_id,
      type: row.type,
      occurredAt: row.occurred_at,
      schemaVersion: row.schema_version,
      payload: row.payload,
      position: row.position,
    } as StoredPlaceEvent;
    const stream = streams.get(row.place_id);
    if (stream) stream.push(event);
    else streams.set(row.place_id, [event]);
  }
  for (const stream of streams.values()) stream.sort((a, b) => a.position - b.position);
  return streams;
}

/**
 * Streams every place id in the store in pages (for full replays). Read from `places` by its primary
 * key: the append that stores a place's first event creates its row, and a distinct scan of `events`
 * would read every event's index entry only to throw most away.
 */
export async function* allPlaceIds(db: Database, pageSize = 5_000): AsyncGenerator<string[]> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('places')
      .select('place_id')
      .where('place_id', '>', after)
      .orderBy('place_id')
      .limit(pageSize)
      .execute();
    if (rows.length === 0) return;
    const ids = rows.map((row) => row.place_id);
    yield ids;
    after = ids[ids.length - 1] ?? after;
  }
}

/**
 * The highest position stored so far (0 for an empty store). Positions come from a sequence, so every
 * event appended after this call gets a higher one: a run reads it before enqueueing and can tell later
 * which of its events it stored and which were there before it.
 */
export async function lastPosition(db: Database): Promise<number> {
  const row = await sql<{ position: number | null }>`select max(position) as position from events`.execute(
    db,
  );
  return Number(row.rows[0]?.position ?? 0);
}

export type StoredSince = {
  /** Stored at a position after the mark: stored while the run lasted. */
  storedAfter: number;
  /** Stored at or before the mark: already there before the run. */
  storedBefore: number;
  /** Not in the store at all. */
  missing: number;
};

const IDS_PER_LOOKUP = 10_000;

/** Of the given (distinct) event ids, how many are stored after `position`, at or before it, and not at all. */
export async function countStoredSince(
  db: Database,
  eventIds: Iterable<string>,
  position: number,
): Promise<StoredSince> {
  const ids = [...eventIds];
  const counts: StoredSince = { storedAfter: 0, storedBefore: 0, missing: 0 };
  for (let start = 0; start < ids.length; start += IDS_PER_LOOKUP) {
    const chunk = ids.slice(start, start + IDS_PER_LOOKUP);
    const result = await sql<{ after: number; before: number }>`
      select count(*) filter (where position > ${position}) as after,
             count(*) filter (where position <= ${position}) as before
      from events where event_id = any(${sql.val(chunk)}::text[])`.execute(db);
    const after = Number(result.rows[0]?.after ?? 0);
    const before = Number(result.rows[0]?.before ?? 0);
    counts.storedAfter += after;
    counts.storedBefore += before;
    counts.missing += chunk.length - after - before;
  }
  return counts;
}
