// `npm run bench:places-row [-- --places N --page P --passes K --seed S --rounds R]`: what the worker's
// control updates of a batch cost PostgreSQL on the wide `places` row (today) against the same logical
// updates on a narrow control table keyed by place id (a possible schema change), per 1,000 places.
//
// Per batch the worker writes each place's row three times: the append bumps `stream_version` (and
// `lag_since`), `savePlaceStates` writes the document, `markProjected` sets `projected_version` (and
// clears `lag_since`); `clearProjectionFailures` deletes from `projection_failures` only. The document
// write is the same in both layouts, so it is left out: each side runs, for random pages of `--page`
// places, the append's bump, `markProjected` and `clearProjectionFailures` (the real functions on the
// wide side; the same statements against `places_control`, created by this bench, on the narrow one).
//
// Places are folded from generated events (the ingest benchmark's generator) and stored with the real
// `savePlaceStates`. Both tables have autovacuum off; each side's run ends with a plain VACUUM of its
// table, timed apart. Figures: CPU of the bench's own PostgreSQL backend (/proc/<pid>/stat), wall time,
// and WAL from one more pass run under EXPLAIN (ANALYZE, WAL) (per statement, so the other databases of
// the cluster do not count). Sides alternate over `--rounds` rounds (default 3); medians and ranges.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Kysely, PostgresDialect, sql, type PostgresPool } from 'kysely';
import pg from 'pg';
import type { Database } from '@directory/database';
import { clearProjectionFailures, markProjected, savePlaceStates } from '@directory/event-store';
import { generateEvents } from '@directory/sample-data';
import { projectRawEvents } from '@directory/testing';
import { createBenchEnvironment, log } from './bench-environment.js';
import { parseProcessTicks } from './cpu-usage.js';
import { describeMachine } from './machine.js';
import {
  addWal,
  describeSide,
  NO_WAL,
  ratioFigure,
  sideFigures,
  sideJson,
  walUsageOfExplain,
  type SideRun,
  type WalUsage,
} from './places-row-figures.js';
import {
  alternateRounds,
  formatFigure,
  parseRounds,
  resultsOf,
  roundedRange,
  ROUNDS_OPTION,
} from './rounds.js';
import { tableUpdates } from './postgres-counters.js';
import { createRandom } from './seeded-random.js';

const { values } = parseArgs({
  options: {
    places: { type: 'string', default: '20000' },
    page: { type: 'string', default: '380' },
    passes: { type: 'string', default: '2' },
    seed: { type: 'string', default: '1' },
    rounds: ROUNDS_OPTION,
  },
});
const placeCount = positiveInteger(values.places, '--places');
const pageSize = positiveInteger(values.page, '--page');
const passes = positiveInteger(values.passes, '--passes');
const seed = Number(values.seed);
const rounds = parseRounds(values.rounds);

function positiveInteger(text: string | undefined, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

type Schema = Database extends Kysely<infer S> ? S : never;
const TICKS_PER_SECOND = 100; // USER_HZ, as in cpu-usage.ts
/** The ingest benchmark's batches: about 380 places per 1,000 events, so 2.6 events per place. */
const EVENTS_PER_PLACE = 1_000 / 380;

/**
 * The bench's one connection, as a Kysely the repositories accept: one backend whose CPU is read from
 * /proc. While `explainWal` is set, every statement runs under EXPLAIN (ANALYZE, WAL) (it still executes)
 * and the WAL it wrote is added to `wal`.
 */
type TimedConnection = {
  db: Database;
  backendPid: number;
  explainWal: boolean;
  wal: WalUsage;
  close: () => Promise<void>;
};

async function openTimedConnection(databaseUrl: string): Promise<TimedConnection> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const connection: TimedConnection = {
    db: undefined as unknown as Database,
    backendPid: 0,
    explainWal: false,
    wal: NO_WAL,
    close: () => client.end(),
  };
  const query = async (text: string, parameters: ReadonlyArray<unknown>) => {
    if (!connection.explainWal) return client.query(text, [...parameters]);
    const explained = await client.query(
      `explain (analyze, wal, timing off, summary off, costs off, format json) ${text}`,
      [...parameters],
    );
    connection.wal = addWal(connection.wal, walUsageOfExplain(explained.rows));
    return explained;
  };
  const pool: PostgresPool = {
    connect: () =>
      Promise.resolve({ query, release: () => undefined } as unknown as Awaited<
        ReturnType<PostgresPool['connect']>
      >),
    end: () => Promise.resolve(),
  };
  connection.db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  const pid = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection.db);
  connection.backendPid = pid.rows[0]?.pid ?? 0;
  return connection;
}

function backendCpuSeconds(pid: number): number {
  return parseProcessTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) / TICKS_PER_SECOND;
}

/** Folds generated events into `count` places and stores them with the worker's own upsert. */
async function loadPlaces(db: Database, count: number, siteOrigin: string): Promise<string[]> {
  const events = [...generateEvents({ count: Math.ceil(count * EVENTS_PER_PLACE * 1.1), seed })];
  const folded = [...projectRawEvents(events, siteOrigin).rows.values()].slice(0, count);
  if (folded.length < count) throw new Error(`the generator gave ${folded.length} places, not ${count}`);
  for (let start = 0; start < folded.length; start += 1_000) {
    await savePlaceStates(db, folded.slice(start, start + 1_000));
  }
  // Caught up, as a worker leaves a place once its batch is projected.
  await sql`update places set projected_version = stream_version, lag_since = null`.execute(db);
  return folded.map((place) => place.placeId);
}

/** The narrow table a schema change would add: the control columns, and the sweeper's partial index. */
async function createControlTable(db: Database): Promise<void> {
  await sql`
    create table places_control (
      place_id text primary key,
      stream_version bigint not null default 0,
      projected_version bigint not null default 0,
      lag_since timestamptz,
      sweep_claimed_until timestamptz)`.execute(db);
  await sql`
    create index places_control_projection_lag on places_control (place_id)
    where projected_version < stream_version`.execute(db);
  await sql`
    insert into places_control (place_id, stream_version, projected_version, lag_since, sweep_claimed_until)
    select place_id, stream_version, projected_version, lag_since, sweep_claimed_until from places
    order by place_id`.execute(db);
  // Dead row versions are left for each side's own timed VACUUM.
  for (const table of ['places', 'places_control'])
    await sql`alter table ${sql.table(table)} set (autovacuum_enabled = off)`.execute(db);
  await sql`vacuum analyze places, places_control`.execute(db);
}

type DocumentStorage = {
  documents: number;
  avgStoredBytes: number;
  avgTextBytes: number;
  compressed: number;
  outOfLine: number;
  tables: Record<string, { heapBytes: number; rowsPerPage: number }>;
};

/**
 * How the documents are stored: their average stored size (compressed or not), how many are compressed
 * and how many live out of line in the TOAST table (one distinct chunk id per value moved there).
 */
async function documentStorage(db: Database): Promise<DocumentStorage> {
  const sizes = await sql<{
    documents: number;
    avg_stored: number;
    avg_text: number;
    compressed: number;
  }>`
    select count(*)::int as documents, avg(pg_column_size(document))::float8 as avg_stored,
           avg(octet_length(document::text))::float8 as avg_text,
           (count(*) filter (where pg_column_compression(document) is not null))::int as compressed
    from places where document is not null`.execute(db);
  const toast = await sql<{ toast: string | null }>`
    select reltoastrelid::regclass::text as toast from pg_class where oid = 'places'::regclass`.execute(db);
  const toastTable = toast.rows[0]?.toast;
  const outOfLine =
    toastTable === null || toastTable === undefined
      ? 0
      : ((
          await sql<{ value_count: number }>`
            select count(distinct chunk_id)::int as value_count from ${sql.raw(toastTable)}`.execute(db)
        ).rows[0]?.value_count ?? 0);
  const tables = await sql<{ name: string; heap_bytes: number; rows_per_page: number }>`
    select relname as name, pg_relation_size(oid)::float8 as heap_bytes,
           (reltuples / greatest(relpages, 1))::float8 as rows_per_page
    from pg_class where relname in ('places', 'places_control')`.execute(db);
  const row = sizes.rows[0];
  return {
    documents: row?.documents ?? 0,
    avgStoredBytes: row?.avg_stored ?? 0,
    avgTextBytes: row?.avg_text ?? 0,
    compressed: row?.compressed ?? 0,
    outOfLine,
    tables: Object.fromEntries(
      tables.rows.map((table) => [
        table.name,
        { heapBytes: table.heap_bytes, rowsPerPage: table.rows_per_page },
      ]),
    ),
  };
}

/** One worker batch's places: each gets 1–4 new events (2.5 on average, near the ingest mix). */
type Page = Array<{ placeId: string; events: number }>;

function planPages(placeIds: ReadonlyArray<string>): Page[] {
  const random = createRandom(seed);
  const shuffled = [...placeIds];
  for (let index = shuffled.length - 1; index > 0; index -= 1) {
    const other = random.int(0, index);
    [shuffled[index], shuffled[other]] = [shuffled[other] as string, shuffled[index] as string];
  }
  const pages: Page[] = [];
  for (let start = 0; start < shuffled.length; start += pageSize) {
    pages.push(
      shuffled.slice(start, start + pageSize).map((placeId) => ({ placeId, events: random.int(1, 4) })),
    );
  }
  return pages;
}

/**
 * The places update of `appendEvents` (its `bumped` step) for events already inserted: the same
 * statement, with the inserted events' counts per place given instead of read from the insert. The
 * alias keeps the statement's text identical for both tables.
 */
async function bumpStreamVersions(
  db: Database,
  table: 'places' | 'places_control',
  page: Page,
): Promise<void> {
  const sorted = [...page].sort((a, b) => (a.placeId < b.placeId ? -1 : a.placeId > b.placeId ? 1 : 0));
  await sql`
    insert into ${sql.table(table)} as places (place_id, stream_version, lag_since)
    select place_id, events, now()
    from unnest(${sql.val(sorted.map((item) => item.placeId))}::text[],
                ${sql.val(sorted.map((item) => item.events))}::bigint[])
      as inserted(place_id, events)
    order by place_id
    on conflict (place_id) do update set
      stream_version = places.stream_version + excluded.stream_version,
      lag_since = case when places.projected_version >= places.stream_version then excluded.lag_since
                       else places.lag_since end
    returning place_id, stream_version`.execute(db);
}

/** `markProjected`'s statement against the narrow table (its `oldestMissingChange` written out). */
async function markProjectedNarrow(
  db: Database,
  projected: ReadonlyArray<{ placeId: string; version: number }>,
): Promise<void> {
  const sorted = [...projected].sort((a, b) => (a.placeId < b.placeId ? -1 : a.placeId > b.placeId ? 1 : 0));
  const ids = sorted.map((item) => item.placeId);
  await sql`
    update places_control as places set projected_version = greatest(places.projected_version, v.version),
      lag_since = case when greatest(places.projected_version, v.version) >= places.stream_version then null
                       else (select events.recorded_at from events where events.place_id = places.place_id
                             order by events.position offset greatest(places.projected_version, v.version)
                             limit 1) end
    from unnest(${sql.val(ids)}::text[], ${sql.val(sorted.map((item) => item.version))}::bigint[])
      as v(place_id, version)
    where places.place_id = v.place_id
      and places.place_id in (
        select place_id from places_control where place_id = any(${sql.val(ids)}::text[])
        order by place_id for update)`.execute(db);
}

type Layout = {
  name: 'wide' | 'narrow';
  table: 'places' | 'places_control';
  markProjected: (
    db: Database,
    projected: ReadonlyArray<{ placeId: string; version: number }>,
  ) => Promise<void>;
  /** Each place's stream version in this side's table, as the bench moved it. */
  versions: Map<string, number>;
};

/** One batch's control updates, in the worker's order: the append's bump, markProjected, clearProjectionFailures. */
async function applyPage(db: Database, layout: Layout, page: Page): Promise<void> {
  await bumpStreamVersions(db, layout.table, page);
  const projected = page.map(({ placeId, events }) => {
    const version = (layout.versions.get(placeId) ?? 0) + events;
    layout.versions.set(placeId, version);
    return { placeId, version };
  });
  await layout.markProjected(db, projected);
  await clearProjectionFailures(db, projected);
}

async function runSide(
  connection: TimedConnection,
  layout: Layout,
  pages: ReadonlyArray<Page>,
): Promise<SideRun> {
  const { db, backendPid } = connection;
  const places = pages.reduce((sum, page) => sum + page.length, 0);
  const statsBefore = await tableUpdates(db, layout.table);
  const cpuBefore = backendCpuSeconds(backendPid);
  const started = performance.now();
  for (let pass = 0; pass < passes; pass += 1) for (const page of pages) await applyPage(db, layout, page);
  const wallSeconds = (performance.now() - started) / 1_000;
  const cpuSeconds = backendCpuSeconds(backendPid) - cpuBefore;
  const statsAfter = await tableUpdates(db, layout.table);

  connection.wal = NO_WAL;
  connection.explainWal = true;
  try {
    for (const page of pages) await applyPage(db, layout, page);
  } finally {
    connection.explainWal = false;
  }
  const wal = connection.wal;

  const vacuumBefore = backendCpuSeconds(backendPid);
  await sql`vacuum ${sql.table(layout.table)}`.execute(db);
  const vacuumCpuSeconds = backendCpuSeconds(backendPid) - vacuumBefore;
  return {
    placeUpdates: places * passes,
    cpuSeconds,
    wallSeconds,
    walPass: { placeUpdates: places, wal },
    // Each place's row is updated twice per pass (the bump and markProjected).
    rowUpdates: statsAfter.updates - statsBefore.updates,
    hotUpdates: statsAfter.hot - statsBefore.hot,
    vacuumCpuSeconds,
  };
}

const environment = await createBenchEnvironment('places_row');
let connection: TimedConnection | undefined;
try {
  log(`loading ${placeCount} places (pages of ${pageSize}, ${passes} timed passes per side run)`);
  const placeIds = await loadPlaces(environment.db, placeCount, environment.config.SITE_ORIGIN);
  await createControlTable(environment.db);
  const storage = await documentStorage(environment.db);
  const toastShare = storage.documents === 0 ? 0 : storage.outOfLine / storage.documents;
  log(
    `documents: ${storage.documents}, average stored ${storage.avgStoredBytes.toFixed(0)} B ` +
      `(text ${storage.avgTextBytes.toFixed(0)} B), compressed ${storage.compressed}, ` +
      `out of line (TOAST) ${storage.outOfLine} (${(toastShare * 100).toFixed(1)} %)`,
  );
  for (const [name, table] of Object.entries(storage.tables))
    log(
      `${name}: heap ${(table.heapBytes / 1_048_576).toFixed(1)} MiB, ${table.rowsPerPage.toFixed(1)} rows per 8 KiB page`,
    );

  const machine = await describeMachine(environment);
  log(machine.block);
  connection = await openTimedConnection(environment.databaseUrl);
  const timed = connection;
  const pages = planPages(placeIds);
  const initialVersions = await sql<{ place_id: string; stream_version: number }>`
    select place_id, stream_version from places`.execute(timed.db);
  const versionsOf = () => new Map(initialVersions.rows.map((row) => [row.place_id, row.stream_version]));
  const layouts: Layout[] = [
    { name: 'wide', table: 'places', markProjected, versions: versionsOf() },
    { name: 'narrow', table: 'places_control', markProjected: markProjectedNarrow, versions: versionsOf() },
  ];
  const done = await alternateRounds<SideRun>({
    rounds,
    sides: layouts.map((layout) => ({ name: layout.name, run: () => runSide(timed, layout, pages) })),
    // One untimed pass of each side: plans cached, both tables' pages in the buffers.
    warmup: async () => {
      for (const layout of layouts) {
        for (const page of pages) await applyPage(timed.db, layout, page);
        await sql`vacuum ${sql.table(layout.table)}`.execute(timed.db);
      }
    },
    afterRound: ({ round, order, results }) => {
      for (const name of order) {
        const run = results.get(name) as SideRun;
        log(
          `round ${round + 1} ${name}: cpu ${run.cpuSeconds.toFixed(2)} s, wall ${run.wallSeconds.toFixed(2)} s ` +
            `for ${run.placeUpdates} places · wal ${run.walPass.wal.bytes} B (${run.walPass.wal.fpi} full pages) ` +
            `for ${run.walPass.placeUpdates} · vacuum cpu ${run.vacuumCpuSeconds.toFixed(2)} s · ` +
            `hot ${run.hotUpdates}/${run.rowUpdates}`,
        );
      }
    },
  });
  const wide = resultsOf(done, 'wide');
  const narrow = resultsOf(done, 'narrow');
  const wideFigures = sideFigures(wide);
  const narrowFigures = sideFigures(narrow);
  const cpuRatio = ratioFigure(narrowFigures.cpuMsPer1000.values, wideFigures.cpuMsPer1000.values);
  const walRatio = ratioFigure(narrowFigures.walBytesPer1000.values, wideFigures.walBytesPer1000.values);
  const wallRatio = ratioFigure(narrowFigures.wallMsPer1000.values, wideFigures.wallMsPer1000.values);
  log(describeSide('wide (places, today)', wideFigures));
  log(describeSide('narrow (places_control)', narrowFigures));
  log(
    `narrow ÷ wide: backend cpu ${formatFigure(cpuRatio)} · wal ${formatFigure(walRatio)} · wall ${formatFigure(wallRatio)}`,
  );
  console.log(
    JSON.stringify({
      bench: 'places-row',
      machine: machine.facts,
      places: placeCount,
      page: pageSize,
      passes,
      rounds,
      document_avg_stored_bytes: Math.round(storage.avgStoredBytes),
      document_avg_text_bytes: Math.round(storage.avgTextBytes),
      documents_out_of_line_share: Math.round(toastShare * 1_000) / 1_000,
      places_rows_per_page: Math.round((storage.tables.places?.rowsPerPage ?? 0) * 10) / 10,
      places_control_rows_per_page: Math.round((storage.tables.places_control?.rowsPerPage ?? 0) * 10) / 10,
      wide: sideJson(wideFigures),
      narrow: sideJson(narrowFigures),
      cpu_ratio: Math.round(cpuRatio.median * 1_000) / 1_000,
      cpu_ratio_range: roundedRange(cpuRatio, 3),
      wal_ratio: Math.round(walRatio.median * 1_000) / 1_000,
      wal_ratio_range: roundedRange(walRatio, 3),
      wall_ratio: Math.round(wallRatio.median * 1_000) / 1_000,
    }),
  );
} finally {
  await connection?.close();
  await environment.cleanup();
}
