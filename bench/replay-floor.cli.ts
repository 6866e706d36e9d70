// Run by `bench:reindex --replay` as a process of its own (a fresh heap, as the reindex process has):
// the replay's floor, the least any replay does. It reads every stream from PostgreSQL in an order a
// replay can fold in (by place, in pages of as many places as the replay holds at once), runs the same
// pure fold on each (refold and serialize), and bulk-loads the documents into a fresh index with the same
// bulk writer, one request per page and one in flight, the next page read and folded meanwhile.
// No lock, no places rows written, no verification, no swap. Prints one JSON line of its figures.
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { databaseTimeouts, loadConfig } from '@directory/config';
import { createDatabase } from '@directory/database';
import { peakResidentMegabytes } from '@directory/observability';
import { projectPlace, type StoredPlaceEvent } from '@directory/domain';
import { REPLAY_PAGE } from '@directory/operator';
import { createDoctorsIndex, createSearchClient, writeSerializedProjections } from '@directory/search-index';

const { values } = parseArgs({ options: { index: { type: 'string' } } });
if (values.index === undefined) throw new Error('--index is required');
const index = values.index;

const config = loadConfig();
const db = createDatabase(config.DATABASE_URL, { timeouts: databaseTimeouts(config, 'job') });
const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs: 120_000, maxRetries: 3 });

type FoldedPage = {
  documents: Array<{ placeId: string; version: number; documentJson: string }>;
  events: number;
};

let foldMicros = 0;

/** Each page of places' streams, read and folded. */
async function* foldedPages(): AsyncGenerator<FoldedPage> {
  for (let after = ''; ;) {
    // The page's bounds from the places' primary key; its events by one range of `events_place_position`.
    const ids = await sql<{ place_id: string }>`
      select place_id from places where place_id > ${after} order by place_id limit ${REPLAY_PAGE}`.execute(
      db,
    );
    const first = ids.rows[0]?.place_id;
    const last = ids.rows.at(-1)?.place_id;
    if (first === undefined || last === undefined) return;
    after = last;
    // Unordered, sorted here, as the replay does: sorted by PostgreSQL a page's events spill to disk.
    const rows = await sql<{
      position: number;
      event_id: string;
      place_id: string;
      type: string;
      occurred_at: string;
      schema_version: number;
      payload: unknown;
    }>`
      select position, event_id, place_id, type, schema_version, payload,
             to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at
      from events where place_id between ${first} and ${last}`.execute(db);
    const startedFold = process.cpuUsage();
    const streams = new Map<string, StoredPlaceEvent[]>();
    for (const row of rows.rows) {
      const event = {
        eventId: row.event_id,
        placeId: row.place_id,
        type: row.type,
        occurredAt: row.occurred_at,
        schemaVersion: row.schema_version,
        payload: row.payload,
        position: Number(row.position),
      } as StoredPlaceEvent;
      const stream = streams.get(row.place_id);
      if (stream) stream.push(event);
      else streams.set(row.place_id, [event]);
    }
    const documents: FoldedPage['documents'] = [];
    for (const [placeId, stream] of streams) {
      stream.sort((a, b) => a.position - b.position);
      const place = projectPlace(placeId, stream, { siteOrigin: config.SITE_ORIGIN });
      documents.push({ placeId, version: place.stateVersion, documentJson: JSON.stringify(place.document) });
    }
    const spent = process.cpuUsage(startedFold);
    foldMicros += spent.user + spent.system;
    yield { documents, events: rows.rows.length };
  }
}

try {
  await createDoctorsIndex(client, index, { refresh_interval: '-1', number_of_replicas: 0 });
  const started = performance.now();
  let documents = 0;
  let events = 0;
  const pages = foldedPages();
  let next = pages.next();
  for (;;) {
    const page = await next;
    if (page.done) break;
    next = pages.next();
    next.catch(() => undefined);
    await writeSerializedProjections(client, index, page.value.documents);
    documents += page.value.documents.length;
    events += page.value.events;
  }
  await client.indices.refresh({ index });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({
      documents,
      events,
      seconds,
      foldCpuSeconds: foldMicros / 1e6,
      peakRssMb: peakResidentMegabytes(),
    }),
  );
} finally {
  await db.destroy();
  await client.close();
}
