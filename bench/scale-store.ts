// The bulk path that builds a store of realistic size: the sample-data generator's events, validated
// and de-duplicated as the worker does, folded per place with the domain's own projection, and written
// with two concurrent COPY streams. The tables it leaves are the ones the worker's append and fold would
// leave for the same events (test/bench/scale-store.int.spec.ts compares them column by column), with
// every place stored and folded but not yet in the search index (projected_version 0, lagging since the
// load).
// The Node side (generator, validation, fold, COPY text) is most of the load, so it is cut into slices
// (bench/scale-store-shard.ts: a generator run of its own seed each, their places disjoint) built by
// `threads` worker threads. The writer takes them in slice order and numbers each slice's positions after
// the ones before it, so the store is the one the worker leaves for the slices' events in order, the same
// whatever the number of threads; a thread holds one slice and the COPY streams at most BACKLOG_BYTES
// unsent, so memory is bounded whatever the size.
import type { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import {
  buildShard,
  eventsText,
  noCounts,
  planShards,
  SHARD_EVENTS,
  type Shard,
  type ShardFigures,
  type StoreCounts,
  type ShardSettings,
} from './scale-store-shard.js';
import type { FromThread, ToThread } from './scale-store-thread.js';

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
  /** Worker threads that build the slices; 1 (the default) builds them in this thread. */
  threads?: number;
  /** Generated events a slice holds (`SHARD_EVENTS` unless given): the store depends on it, not on threads. */
  shardEvents?: number;
};

export type ScaleStoreFigures = StoreCounts & {
  eventBytes: number;
  placeBytes: number;
  /** Seconds of the load (generate, validate, fold and both COPY streams, which run together). */
  loadSeconds: number;
  /** Seconds spent in the generator, validation, the fold and the COPY text, summed over the threads. */
  generateFoldSeconds: number;
  /** Seconds the main thread waited for worker threads' slices (0 with one thread, which builds them). */
  shardWaitSeconds: number;
  /** Seconds the main thread waited for PostgreSQL to take the COPY text. */
  copyWaitSeconds: number;
  threads: number;
  /** The last position taken from the sequence (duplicates take one too, as the worker's inserts do). */
  lastPosition: number;
  indexSeconds: number;
  commitSeconds: number;
  vacuumSeconds: number;
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

/** The old generation a worker thread may use. */
const THREAD_HEAP_MB = 512;
/** COPY bytes a stream may hold unsent before the writer waits for PostgreSQL to take them. */
const BACKLOG_BYTES = 32 << 20;

const EVENT_COLUMNS = 'position, event_id, place_id, type, occurred_at, schema_version, payload, recorded_at';
const PLACE_COLUMNS =
  'place_id, document, stream_version, state_version, projected_version, lag_since, served, updated_at, ' +
  'changed_xid, feed_country, changed_at, doctor_digest, document_digest';

/** Builds the store in the (migrated, empty) database at `databaseUrl`. */
export async function buildScaleStore(
  databaseUrl: string,
  options: ScaleStoreOptions,
): Promise<ScaleStoreFigures> {
  // The load is one long COPY per table, an index build and a vacuum: longer than any statement timeout.
  const eventsClient = await connectUntimed(databaseUrl);
  const placesClient = await connectUntimed(databaseUrl);
  try {
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
    // A long-lived store has its statistics (the planner must not take it for empty) and its visibility
    // map: at full size this takes longer than a minute.
    const vacuuming = performance.now();
    await Promise.all([
      eventsClient.query('vacuum analyze events'),
      placesClient.query('vacuum analyze places'),
    ]);
    const vacuumSeconds = (performance.now() - vacuuming) / 1000;
    return { ...load, loadSeconds, indexSeconds, commitSeconds, vacuumSeconds };
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

type LoadFigures = Omit<
  ScaleStoreFigures,
  'loadSeconds' | 'indexSeconds' | 'commitSeconds' | 'vacuumSeconds'
>;

/** A slice on its way: its places' text and position count first, its events' text once it has an offset. */
type Counted = {
  positions: number;
  figures: ShardFigures;
  placesText: string | Uint8Array;
  events: (offset: number) => Promise<{ text: string | Uint8Array; bytes: number }>;
};

async function streamStore(
  options: ScaleStoreOptions,
  eventsCopy: CopyStream,
  placesCopy: CopyStream,
  eventsStamp: Stamp,
  placesStamp: Stamp,
): Promise<LoadFigures> {
  const shards = planShards({
    events: options.events,
    places: options.places,
    seed: options.seed,
    shardEvents: options.shardEvents ?? SHARD_EVENTS,
  });
  const settings: ShardSettings = {
    extraRecrawlsPerPlace: options.extraRecrawlsPerPlace,
    siteOrigin: options.siteOrigin,
    eventsNow: eventsStamp.now,
    placesNow: placesStamp.now,
    placesXid: placesStamp.xid,
  };
  const asked = options.threads ?? 1;
  if (!Number.isSafeInteger(asked) || asked < 1)
    throw new RangeError(`threads must be a whole number ≥ 1, got ${asked}`);
  const threads = Math.min(asked, Math.max(1, shards.length));
  const figures: LoadFigures = {
    ...noCounts(),
    eventBytes: 0,
    placeBytes: 0,
    generateFoldSeconds: 0,
    shardWaitSeconds: 0,
    copyWaitSeconds: 0,
    threads,
    lastPosition: 0,
  };
  const pool = threads === 1 ? undefined : startThreads(threads, shards, settings);
  try {
    let offset = 0;
    for (const shard of shards) {
      const waiting = performance.now();
      const counted = pool === undefined ? countedHere(shard, settings) : await pool.counted(shard.index);
      const events = await counted.events(offset);
      figures.shardWaitSeconds += (performance.now() - waiting) / 1000;
      offset += counted.positions;
      const copying = performance.now();
      await Promise.all([eventsCopy.write(events.text), placesCopy.write(counted.placesText)]);
      figures.copyWaitSeconds += (performance.now() - copying) / 1000;
      pool?.written(shard.index);
      const { seconds, ...counts } = counted.figures;
      for (const key of Object.keys(counts) as Array<keyof typeof counts>) figures[key] += counts[key];
      figures.generateFoldSeconds += seconds;
      figures.eventBytes += events.bytes;
    }
    figures.lastPosition = offset;
    // In one thread the wait for a slice is its building and numbering: Node time, none idle.
    if (pool === undefined) {
      figures.generateFoldSeconds = figures.shardWaitSeconds;
      figures.shardWaitSeconds = 0;
    }
    return figures;
  } finally {
    await pool?.stop();
  }
}

/** Builds a slice in this thread (`--threads 1`). */
function countedHere(shard: Shard, settings: ShardSettings): Counted {
  const built = buildShard(shard, settings);
  return {
    positions: built.positions,
    figures: built.figures,
    placesText: built.placesText,
    events: (offset) => {
      const text = eventsText(built, offset);
      return Promise.resolve({ text, bytes: Buffer.byteLength(text) });
    },
  };
}

type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void };

function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * Worker threads that build the slices in order, each taking the next one when it is free and no more
 * than `threads` slices past the one being written, so memory stays bounded whatever the store's size.
 */
function startThreads(
  threads: number,
  shards: ReadonlyArray<Shard>,
  settings: ShardSettings,
): {
  counted: (index: number) => Promise<Counted>;
  written: (index: number) => void;
  stop: () => Promise<void>;
} {
  const counted = shards.map(() => deferred<Counted>());
  let writtenUpTo = -1;
  let windowMoved = deferred<void>();
  let nextShard = 0;
  let stopped = false;
  const fail = (error: unknown): void => {
    stopped = true;
    for (const item of counted) item.reject(error);
    windowMoved.reject(error);
  };
  const workers = Array.from({ length: threads }, () => {
    const worker = new Worker(new URL('./scale-store-thread.mjs', import.meta.url), {
      workerData: { entry: new URL('./scale-store-thread.ts', import.meta.url).href },
      // A thread's live data is the generator's tables and one slice (about 250 MB): without a cap each
      // thread's heap grows to about 1 GB before collecting.
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
    worker.on('error', fail);
    return worker;
  });
  const reply = (worker: Worker, type: FromThread['type']): Promise<FromThread> =>
    new Promise((resolve, reject) => {
      const onMessage = (message: FromThread): void => {
        worker.off('error', reject);
        if (message.type === type) resolve(message);
        else reject(new Error(`expected ${type} from a scale-store thread, got ${message.type}`));
      };
      worker.once('message', onMessage);
      worker.once('error', reject);
    });
  const run = async (worker: Worker): Promise<void> => {
    while (!stopped && nextShard < shards.length) {
      const shard = shards[nextShard++] as Shard;
      const countedReply = reply(worker, 'counted');
      worker.postMessage({ type: 'shard', shard, settings } satisfies ToThread);
      const message = await countedReply;
      if (message.type !== 'counted') throw new Error('unexpected message');
      counted[shard.index]?.resolve({
        positions: message.positions,
        figures: message.figures,
        placesText: message.placesText,
        events: async (offset) => {
          const eventsReply = reply(worker, 'events');
          worker.postMessage({ type: 'offset', index: shard.index, offset } satisfies ToThread);
          const events = await eventsReply;
          if (events.type !== 'events') throw new Error('unexpected message');
          return { text: events.eventsText, bytes: events.eventsText.byteLength };
        },
      });
      // The thread holds this slice's events until the writer asks for them with the offset.
      await waitWritten(shard.index);
    }
  };
  const waitWritten = async (index: number): Promise<void> => {
    while (!stopped && writtenUpTo < index) await windowMoved.promise;
  };
  const running = workers.map((worker) => run(worker).catch(fail));
  return {
    counted: (index) => (counted[index] as Deferred<Counted>).promise,
    written: (index) => {
      writtenUpTo = index;
      const moved = windowMoved;
      windowMoved = deferred<void>();
      moved.resolve();
    },
    stop: async () => {
      stopped = true;
      windowMoved.resolve();
      await Promise.all(running);
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

type CopyStream = { write: (text: string | Uint8Array) => Promise<void>; end: () => Promise<void> };

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
      // A slice's text is one write: wait only once the stream holds more than the backlog, so the
      // next slice is built while PostgreSQL takes this one.
      if (!stream.write(text) && stream.writableLength > BACKLOG_BYTES) await waitForDrain(stream);
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

/**
 * Records that the index holds every place's folded document, as the worker's projector does after it
 * writes them: a bulk-built store is folded but not projected (projected_version 0), and once `reindex`
 * has copied the documents a worker would otherwise take every place for lagging and sweep them all,
 * beside whatever is measured. Rewrites the rows it marks (millions: the table's size doubles until a
 * vacuum full), so it runs before the measures that start a worker, after the storage is measured.
 * Returns the places marked.
 */
export async function markStoreProjected(databaseUrl: string): Promise<number> {
  const client = await connectUntimed(databaseUrl);
  try {
    const marked = await client.query(
      `update places set projected_version = stream_version, lag_since = null
       where projected_version < stream_version and state_version = stream_version`,
    );
    await client.query('vacuum analyze places');
    return marked.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

/** A connection without the database's statement timeout, for statements over millions of rows. */
async function connectUntimed(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('set statement_timeout = 0');
  } catch (error) {
    await client.end();
    throw error;
  }
  return client;
}
