import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '@directory/database';
import { parsePlaceEvent, projectPlace } from '@directory/domain';
import { appendEvents, readStreams, savePlaceStates } from '@directory/event-store';
import { generateEvents } from '@directory/sample-data';
import { createTestDatabase, SITE_ORIGIN } from '@directory/testing';
import { planShards } from '../../bench/scale-store-shard.js';
import { buildScaleStore } from '../../bench/scale-store.js';

const SEED = 7;
// The write path stores one event at a time (about 5 ms each): 1,500 events are over 500 places with
// every lifecycle event type among them (without extra recrawls, seed 7), in about 15 s for both cases.
const EVENTS = 1_500;
/** About ten events per place, as `--events` asks for a store with weekly recrawls. */
const RECRAWLS = 7;

/**
 * The worker's write path for the same events, one event per batch so positions follow the generator's
 * order (a batch stores its events in event-id order), slice after slice: append, refold the place from
 * its stored stream, save the state. Invalid events are the dead letters' concern and are left out.
 */
async function ingestThroughWritePath(
  db: Database,
  extraRecrawlsPerPlace: number,
  shardEvents: number,
): Promise<void> {
  const shards = planShards({ events: EVENTS, places: Number.MAX_SAFE_INTEGER, seed: SEED, shardEvents });
  for (const shard of shards)
    for (const raw of generateEvents({ count: shard.events, seed: shard.seed, extraRecrawlsPerPlace })) {
      const parsed = parsePlaceEvent(raw);
      if (!parsed.ok) continue;
      const appended = await appendEvents(db, [parsed.value]);
      if (appended.stored.length === 0) continue;
      const placeId = parsed.value.placeId;
      const stream = (await readStreams(db, [placeId])).get(placeId) ?? [];
      await savePlaceStates(db, [projectPlace(placeId, stream, { siteOrigin: SITE_ORIGIN })]);
    }
}

async function eventRows(db: Database): Promise<unknown[]> {
  const result = await sql`
    select position, event_id, place_id, type, occurred_at, schema_version, payload::text as payload
    from events order by position`.execute(db);
  return result.rows;
}

/** Every column but the ones stamped with the writing transaction's now() or id (compared as present or not). */
async function placeRows(db: Database): Promise<unknown[]> {
  const result = await sql`
    select place_id, document::text as document, stream_version, state_version, projected_version, served,
           feed_country, sweep_claimed_until, lag_since is null as no_lag_since,
           changed_xid is null as no_changed_xid, changed_at is null as no_changed_at,
           encode(doctor_digest, 'hex') as doctor_digest, encode(document_digest, 'hex') as document_digest
    from places order by place_id`.execute(db);
  return result.rows;
}

async function indexDefinitions(db: Database): Promise<unknown[]> {
  const result = await sql`
    select tablename, indexname, indexdef from pg_indexes
    where schemaname = current_schema() and tablename in ('events', 'places') order by indexname`.execute(db);
  return result.rows;
}

async function nextPosition(db: Database): Promise<string | undefined> {
  const result = await sql<{
    position: string;
  }>`select nextval('events_position_seq')::text as position`.execute(db);
  return result.rows[0]?.position;
}

describe('buildScaleStore', () => {
  // One slice is the generator's plain run; three slices of 500 events are built in the main thread and
  // in two worker threads, and both must be the store the write path leaves for the slices in order.
  it.each([
    { recrawls: 0, minPlaces: 500, shardEvents: EVENTS, threads: [1] },
    { recrawls: RECRAWLS, minPlaces: 150, shardEvents: 500, threads: [1, 2] },
  ])(
    "leaves the events and places rows the worker's append and fold leave, and the schema's indexes (extra recrawls: $recrawls, slices of $shardEvents events, threads: $threads)",
    async ({ recrawls, minPlaces, shardEvents, threads }) => {
      const real = await createTestDatabase('scale-store-real');
      const bulks = await Promise.all(threads.map(() => createTestDatabase('scale-store-bulk')));
      try {
        await ingestThroughWritePath(real.db, recrawls, shardEvents);
        const realEvents = await eventRows(real.db);
        const realPlaces = await placeRows(real.db);
        expect(realPlaces.length).toBeGreaterThan(minPlaces);
        const realIndexes = await indexDefinitions(real.db);
        const realNext = await nextPosition(real.db);
        for (const [index, bulk] of bulks.entries()) {
          const figures = await buildScaleStore(bulk.url, {
            events: EVENTS,
            places: Number.MAX_SAFE_INTEGER,
            seed: SEED,
            extraRecrawlsPerPlace: recrawls,
            siteOrigin: SITE_ORIGIN,
            dropIndexes: true,
            threads: threads[index],
            shardEvents,
          });
          expect(figures.threads).toBe(threads[index]);
          expect(figures.storedEvents).toBe(realEvents.length);
          expect(figures.places).toBe(realPlaces.length);
          expect(await eventRows(bulk.db)).toEqual(realEvents);
          expect(await placeRows(bulk.db)).toEqual(realPlaces);
          expect(await indexDefinitions(bulk.db)).toEqual(realIndexes);
          // The position sequence goes on where the worker's would.
          expect(await nextPosition(bulk.db)).toBe(realNext);
        }

        // No place changed datasets: no departures in either store, which the bulk path does not write.
        const departures = await sql<{
          count: string;
        }>`select count(*)::text from place_departures`.execute(real.db);
        expect(departures.rows[0]?.count).toBe('0');
      } finally {
        await real.drop();
        for (const bulk of bulks) await bulk.drop();
      }
    },
    300_000,
  );

  it('stops at the event that would begin the place past --places', async () => {
    const limited = await createTestDatabase('scale-store-limited');
    try {
      const figures = await buildScaleStore(limited.url, {
        events: EVENTS,
        places: 100,
        seed: SEED,
        extraRecrawlsPerPlace: 0,
        siteOrigin: SITE_ORIGIN,
        dropIndexes: false,
      });
      expect(figures.places).toBe(100);
      const counts = await sql<{ places: string; events: string; versions: string }>`
        select (select count(*) from places)::text as places, (select count(*) from events)::text as events,
               (select sum(stream_version) from places)::text as versions`.execute(limited.db);
      expect(counts.rows[0]).toEqual({
        places: '100',
        events: String(figures.storedEvents),
        versions: String(figures.storedEvents),
      });
    } finally {
      await limited.drop();
    }
  });
});
