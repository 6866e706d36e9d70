// The bulk path that builds a store of realistic size: the sample-data generator's events, validated
// and de-duplicated as the worker does, folded per place with the domain's own projection, and written
// with COPY in streamed batches. The tables it leaves are the ones the worker's append and fold would
// leave (test/bench/scale-store.int.spec.ts compares them column by column), with every place stored and
// folded but not yet in the search index (projected_version 0, lagging since the load).
// The load is Node-bound. A CPU profile at 3,000 places and 29,858 events (ten a place): of 8.1 s in the
// load loop the generator took 3.4 s, validation 1.7 s, the fold 1.2 s (the tombstones' refolds 0.3 s),
// the rest COPY text and garbage collection (2.2 s over the run). Worker threads for generation and the
// fold were not tried: on two cores the COPY backends and the engines compete for the same CPU.
import type { Writable } from 'node:stream';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { parsePlaceEvent, projectPlace, type StoredPlaceEvent } from '@directory/domain';
import { generateEvents } from '@directory/sample-data';

export type ScaleStoreOptions = {
  /** Events the generator yields (invalid ones and duplicates included, as a producer sends them). */
  events: number;
  /** Stop before the generator's next new place once this many places are stored. */
  places: number;
  seed: number;
  /** Recrawls added to each place's plan on average (see `extraRecrawlsFor`). */
  extraRecrawlsPerPlace: number;
  siteOrigin: string;
  /** Drop the secondary indexes and constraints before the load and rebuild them after it. */
  dropIndexes: boolean;
};

export type ScaleStoreFigures = {
  generated: number;
  storedEvents: number;
  places: number;
  servedPlaces: number;
  invalid: number;
  duplicates: number;
  eventBytes: number;
  placeBytes: number;
  /** Seconds of the load (generate, validate, fold and both COPY streams, which run together). */
  loadSeconds: number;
  /** Seconds spent in the generator, validation and the fold (the Node side of the load). */
  generateFoldSeconds: number;
  /** The last position taken from the sequence (duplicates take one too, as the worker's inserts do). */
  lastPosition: number;
  indexSeconds: number;
  commitSeconds: number;
};

/** Events the generator yields per place without extra recrawls (measured over 300,000 events). */
const GENERATED_EVENTS_PER_PLACE = 2.75;
/** The share of generated events that are a place's planned steps (not invalid, not resent). */
const STEP_SHARE = 0.975;

/**
 * The extra recrawls per place that make the generator's `events` reach about `places` places: a store
 * with a directory's history (about ten events per place, weekly recrawls) rather than the generator's
 * fresh one (2.75).
 */
export function extraRecrawlsFor(events: number, places: number): number {
  if (places <= 0) return 0;
  return Math.max(0, (events / places - GENERATED_EVENTS_PER_PLACE) * STEP_SHARE);
}

/** The worker refolds a place when it gets new events; a place silent this long has had all of its own. */
const IDLE_EVENTS = 20_000;
/** Duplicates are resent recent events: the ids stored within this many events are remembered. */
const RECENT_IDS = 50_000;
/** Bytes of COPY text gathered before a write to the stream. */
const CHUNK_BYTES = 1 << 20;

const EVENT_COLUMNS = 'position, event_id, place_id, type, occurred_at, schema_version, payload, recorded_at';
const PLACE_COLUMNS =
  'place_id, document, stream_version, state_version, projected_version, lag_since, served, updated_at, ' +
  'changed_xid, feed_country, changed_at';

/** Builds the store in the (migrated, empty) database at `databaseUrl`. */
export async function buildScaleStore(
  databaseUrl: string,
  options: ScaleStoreOptions,
): Promise<ScaleStoreFigures> {
  const eventsClient = new pg.Client({ connectionString: databaseUrl });
  const placesClient = new pg.Client({ connectionString: databaseUrl });
  await eventsClient.connect();
  await placesClient.connect();
  try {
    // The load is one long COPY per table and an index build: no statement timeout the database sets.
    for (const client of [eventsClient, placesClient]) await client.query('set statement_timeout = 0');
    const dropped = options.dropIndexes ? await dropSecondaryIndexes(eventsClient) : [];
    // Each stream's rows are stamped as the worker's statements stamp them: its transaction's now() and id.
    const eventsTransaction = await beginStamped(eventsClient);
    const placesTransaction = await beginStamped(placesClient);
    const started = performance.now();
    const eventsCopy = copyInto(eventsClient, `copy events (${EVENT_COLUMNS}) from stdin`);
    const placesCopy = copyInto(placesClient, `copy places (${PLACE_COLUMNS}) from stdin`);
    const load = await streamStore(options, eventsCopy, placesCopy, eventsTransaction, placesTransaction);
    await Promise.all([eventsCopy.end(), placesCopy.end()]);
    const loadSeconds = (performance.now() - started) / 1000;
    const committing = performance.now();
    await eventsClient.query(
      `select setval('events_position_seq', greatest($1::bigint, 1), $1::bigint > 0)`,
      [load.lastPosition],
    );
    await Promise.all([eventsClient.query('commit'), placesClient.query('commit')]);
    const commitSeconds = (performance.now() - committing) / 1000;
    const indexing = performance.now();
    await restoreIndexes(eventsClient, placesClient, dropped);
    const indexSeconds = (performance.now() - indexing) / 1000;
    return { ...load, loadSeconds, indexSeconds, commitSeconds };
  } finally {
    await eventsClient.end();
    await placesClient.end();
  }
}

type Stamp = { now: string; xid: string };

async function beginStamped(client: pg.Client): Promise<Stamp> {
  // The load is one long COPY per table: no idle timeout the server may default to applies either.
  await client.query('set idle_in_transaction_session_timeout = 0');
  await client.query('begin');
  const result = await client.query<{ now: string; xid: string }>(
    'select now()::text as now, pg_current_xact_id()::text as xid',
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('no transaction stamp');
  return row;
}

type LoadFigures = Omit<ScaleStoreFigures, 'loadSeconds' | 'indexSeconds' | 'commitSeconds'>;

type OpenStream = { events: StoredPlaceEvent[]; lastSeen: number };

async function streamStore(
  options: ScaleStoreOptions,
  eventsCopy: CopyStream,
  placesCopy: CopyStream,
  eventsStamp: Stamp,
  placesStamp: Stamp,
): Promise<LoadFigures> {
  const figures: LoadFigures = {
    generated: 0,
    storedEvents: 0,
    places: 0,
    servedPlaces: 0,
    invalid: 0,
    duplicates: 0,
    eventBytes: 0,
    placeBytes: 0,
    generateFoldSeconds: 0,
    lastPosition: 0,
  };
  const open = new Map<string, OpenStream>();
  const recentIds = new Set<string>();
  const recentOrder: string[] = [];
  let position = 0;
  let eventText = '';
  let placeText = '';
  let nodeStarted = performance.now();
  const pause = async (write: () => Promise<void>): Promise<void> => {
    figures.generateFoldSeconds += (performance.now() - nodeStarted) / 1000;
    await write();
    nodeStarted = performance.now();
  };
  const flushPlace = (placeId: string, stream: OpenStream): void => {
    const projection = projectPlace(placeId, stream.events, { siteOrigin: options.siteOrigin });
    const served = projection.document.served;
    const country = served
      ? projection.document.country
      : lastServedCountry(placeId, stream.events, options.siteOrigin);
    const line = placeLine(
      placeId,
      JSON.stringify(projection.document),
      stream.events.length,
      projection.stateVersion,
      served,
      country,
      placesStamp,
    );
    placeText += line;
    figures.placeBytes += Buffer.byteLength(line);
    if (served) figures.servedPlaces++;
    open.delete(placeId);
  };

  for (const raw of generateEvents({
    count: options.events,
    seed: options.seed,
    extraRecrawlsPerPlace: options.extraRecrawlsPerPlace,
  })) {
    figures.generated++;
    const parsed = parsePlaceEvent(raw);
    if (!parsed.ok) {
      figures.invalid++;
      continue;
    }
    const event = parsed.value;
    // A resent event is not stored, but its insert took a position from the sequence, as the worker's
    // `on conflict do nothing` does: positions keep the gaps the worker's leave.
    if (recentIds.has(event.eventId)) {
      position++;
      figures.duplicates++;
      continue;
    }
    let stream = open.get(event.placeId);
    if (stream === undefined) {
      if (figures.places >= options.places) break;
      figures.places++;
      stream = { events: [], lastSeen: 0 };
      open.set(event.placeId, stream);
    }
    position++;
    figures.storedEvents++;
    const occurredAt = new Date(event.occurredAt).toISOString();
    stream.events.push({ ...event, occurredAt, position });
    stream.lastSeen = position;
    recentIds.add(event.eventId);
    recentOrder.push(event.eventId);
    if (recentOrder.length > RECENT_IDS) recentIds.delete(recentOrder.shift() as string);
    const line = eventLine(
      position,
      event.eventId,
      event.placeId,
      event.type,
      occurredAt,
      event.schemaVersion,
      JSON.stringify(event.payload),
      eventsStamp,
    );
    eventText += line;
    figures.eventBytes += Buffer.byteLength(line);

    if (figures.storedEvents % 1_000 === 0) {
      for (const [placeId, idle] of open)
        if (position - idle.lastSeen > IDLE_EVENTS) flushPlace(placeId, idle);
    }
    if (eventText.length >= CHUNK_BYTES) {
      const text = eventText;
      eventText = '';
      await pause(() => eventsCopy.write(text));
    }
    if (placeText.length >= CHUNK_BYTES) {
      const text = placeText;
      placeText = '';
      await pause(() => placesCopy.write(text));
    }
  }
  for (const [placeId, stream] of open) flushPlace(placeId, stream);
  figures.generateFoldSeconds += (performance.now() - nodeStarted) / 1000;
  await eventsCopy.write(eventText);
  await placesCopy.write(placeText);
  figures.lastPosition = position;
  return figures;
}

function eventLine(
  position: number,
  eventId: string,
  placeId: string,
  type: string,
  occurredAt: string,
  schemaVersion: number,
  payloadJson: string,
  stamp: Stamp,
): string {
  return `${position}\t${copyText(eventId)}\t${copyText(placeId)}\t${copyText(type)}\t${occurredAt}\t${schemaVersion}\t${copyText(payloadJson)}\t${stamp.now}\n`;
}

/**
 * A place as the worker leaves it after appending its events and saving their fold (savePlaceStates):
 * lagging since the append, not yet projected, and in the changes feed at the saving transaction if it was
 * ever served (`country`: the dataset it was last served in).
 */
function placeLine(
  placeId: string,
  documentJson: string,
  streamVersion: number,
  stateVersion: number,
  served: boolean,
  country: string | null,
  stamp: Stamp,
): string {
  const feed = country === null ? '\\N\t\\N\t\\N' : `${stamp.xid}\t${copyText(country)}\t${stamp.now}`;
  return `${copyText(placeId)}\t${copyText(documentJson)}\t${streamVersion}\t${stateVersion}\t0\t${stamp.now}\t${served ? 't' : 'f'}\t${stamp.now}\t${feed}\n`;
}

/**
 * The dataset a tombstone was last served in, if it ever was: the worker refolds a place after each batch
 * of its events, and a place served after one of them stays in that dataset's changes feed as a removal.
 * Computed as a worker that stores one event per batch would (the finest the feed can record).
 */
function lastServedCountry(
  placeId: string,
  events: ReadonlyArray<StoredPlaceEvent>,
  siteOrigin: string,
): string | null {
  for (let length = events.length - 1; length > 0; length--) {
    const { document } = projectPlace(placeId, events.slice(0, length), { siteOrigin });
    if (document.served) return document.country;
  }
  return null;
}

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped. */
export function copyText(value: string): string {
  return value.replace(/[\\\t\n\r]/g, (character) =>
    character === '\\' ? '\\\\' : character === '\t' ? '\\t' : character === '\n' ? '\\n' : '\\r',
  );
}

type CopyStream = { write: (text: string) => Promise<void>; end: () => Promise<void> };

/** A COPY … FROM STDIN that takes text with backpressure and finishes when PostgreSQL has taken it all. */
function copyInto(client: pg.Client, statement: string): CopyStream {
  const stream: Writable = client.query(copyFrom(statement));
  let failure: Error | undefined;
  stream.on('error', (error: Error) => {
    failure = error;
  });
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  finished.catch(() => undefined);
  return {
    write: async (text) => {
      if (failure !== undefined) throw failure;
      if (text.length === 0) return;
      if (!stream.write(text)) await waitForDrain(stream);
    },
    end: async () => {
      stream.end();
      await finished;
    },
  };
}

function waitForDrain(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    stream.once('error', onError);
    stream.once('drain', () => {
      stream.off('error', onError);
      resolve();
    });
  });
}

/** A dropped index or constraint and the statement that restores it exactly as it was. */
type DroppedIndex = { table: string; name: string; restore: string };

const LOADED_TABLES = ['events', 'places'];

/**
 * Drops every index and unique/primary-key constraint of `events` and `places`, returning what restores
 * them: `pg_get_constraintdef` and `pg_get_indexdef` as the catalog has them.
 */
async function dropSecondaryIndexes(client: pg.Client): Promise<DroppedIndex[]> {
  const constraints = await client.query<{ table: string; name: string; definition: string }>(
    `select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
     from pg_constraint where conrelid = any($1::regclass[]) and contype in ('p', 'u') order by conname`,
    [LOADED_TABLES],
  );
  const indexes = await client.query<{ table: string; name: string; definition: string }>(
    `select tablename as table, indexname as name, indexdef as definition from pg_indexes
     where schemaname = current_schema() and tablename = any($1)
       and indexname not in (select conname from pg_constraint where contype in ('p', 'u'))
     order by indexname`,
    [LOADED_TABLES],
  );
  const dropped: DroppedIndex[] = [];
  for (const row of constraints.rows) {
    await client.query(`alter table ${row.table} drop constraint "${row.name}"`);
    dropped.push({
      table: row.table,
      name: row.name,
      restore: `alter table ${row.table} add constraint "${row.name}" ${row.definition}`,
    });
  }
  for (const row of indexes.rows) {
    await client.query(`drop index "${row.name}"`);
    dropped.push({ table: row.table, name: row.name, restore: row.definition });
  }
  return dropped;
}

/** Rebuilds the dropped indexes, the two tables' in parallel (one connection each). */
async function restoreIndexes(
  eventsClient: pg.Client,
  placesClient: pg.Client,
  dropped: ReadonlyArray<DroppedIndex>,
): Promise<void> {
  const restoreOn = async (client: pg.Client, table: string): Promise<void> => {
    for (const index of dropped.filter((item) => item.table === table)) await client.query(index.restore);
  };
  await Promise.all([restoreOn(eventsClient, 'events'), restoreOn(placesClient, 'places')]);
}
