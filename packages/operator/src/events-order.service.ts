import { sql } from 'kysely';
import type { Database } from '@directory/database';

/**
 * `directory db cluster-events`: rewrites the events table in stream order (place, then position), the
 * order a replay reads it in. Events arrive in crawl order, so one place's stream lies scattered over the
 * whole table: once the table outgrows memory, a replay (and its floor) reads each block several times
 * over, for a few rows of it each time. In stream order a replay page's streams are a few neighbouring
 * blocks. New events are appended at the end as before, so the order decays with ingest until the next
 * run (docs/operations.md, "Events in stream order").
 */

/** How long the rewrite waits for the table's exclusive lock before giving up (appends hold theirs briefly). */
export const CLUSTER_LOCK_TIMEOUT_MS = 10_000;

/**
 * How long the rewrite may run: 2,000,000 places' 19.4 million events (a 26 GB table) took 17.7
 * minutes through the index on a cloud disk; this leaves room for tables many times that. The server
 * cancels the statement then, and the command's own connections wait that long for an answer
 * (`rewriteTimeouts`), where a job's statement bound would cut the rewrite short.
 */
export const CLUSTER_STATEMENT_TIMEOUT_MS = 12 * 60 * 60 * 1000;

/** The command's database timeouts: a job's, with room for the one long statement. */
export function rewriteTimeouts<Timeouts extends { statementTimeoutMs: number }>(job: Timeouts): Timeouts {
  return { ...job, statementTimeoutMs: Math.max(job.statementTimeoutMs, CLUSTER_STATEMENT_TIMEOUT_MS) };
}

/** One reading of `pg_stat_progress_cluster` for the events table. */
export type ClusterProgress = {
  phase: string;
  heapBlocksScanned: number;
  heapBlocksTotal: number;
  tuplesWritten: number;
};

/**
 * The free disk a rewrite needs: the new copy of the table and its indexes, written beside the old one,
 * and when PostgreSQL sorts the rows (its choice for a scattered table) as much again as the table for
 * the sort's temporary files. Reading through the index instead needs no temporary files.
 */
export type ClusterDiskNeed = { tableBytes: number; indexBytes: number };

/** How the table stood before and after, as `pg_stats` reads it after an ANALYZE. */
export type ClusterOutcome = {
  /** `pg_stats.correlation` of `place_id`: 1 when rows lie in place order, near 0 when scattered. */
  orderBefore: number | null;
  orderAfter: number | null;
  tableBytes: number;
  seconds: number;
};

/** The events table's exclusive lock was not granted in time: ingest or a reader held it. */
export class EventsTableBusyError extends Error {
  constructor(waitedMs: number) {
    super(
      `the events table stayed busy for ${waitedMs / 1000} s: stop the workers (ingest waits in the queue) and run it again`,
    );
    this.name = 'EventsTableBusyError';
  }
}

/** The operator stopped the command: the server cancelled the rewrite, and the table is as it was. */
export class ClusterCancelledError extends Error {
  constructor() {
    super('cancelled: the rewrite was stopped on the server, and the events table is as it was');
    this.name = 'ClusterCancelledError';
  }
}

/** A progress reading as one line: the phase, and how far through the table's blocks it is. */
export function formatClusterProgress(progress: ClusterProgress): string {
  const share =
    progress.heapBlocksTotal > 0
      ? ` ${Math.floor((100 * progress.heapBlocksScanned) / progress.heapBlocksTotal)} % of ${progress.heapBlocksTotal} blocks read,`
      : '';
  return `${progress.phase}:${share} ${progress.tuplesWritten} events written`;
}

/** The table's and its indexes' sizes now: what a rewrite writes again (ClusterDiskNeed). */
export async function clusterDiskNeed(db: Database): Promise<ClusterDiskNeed> {
  const result = await sql<{ table: string; indexes: string }>`
    select pg_table_size('events') as table, pg_indexes_size('events') as indexes`.execute(db);
  const row = result.rows[0];
  return { tableBytes: Number(row?.table ?? 0), indexBytes: Number(row?.indexes ?? 0) };
}

/** The free disk a rewrite needs, as one line for the operator. */
export function formatDiskNeed(need: ClusterDiskNeed, throughIndex: boolean): string {
  const gb = (bytes: number) => (bytes / 1024 ** 3).toFixed(1);
  const copy = need.tableBytes + need.indexBytes;
  return throughIndex
    ? `needs about ${gb(copy)} GB of free disk (the new copy of the table and its indexes)`
    : `needs about ${gb(copy + need.tableBytes)} GB of free disk (the new copy of the table and its indexes, ` +
        `and the sort's temporary files; --through-index needs ${gb(copy)} GB)`;
}

/**
 * Rewrites the events table in stream order and analyzes it. `db` must connect as the table's owner
 * with `rewriteTimeouts` and hold two connections: one rewrites, the other reads the progress every
 * `progressEveryMs` for `onProgress`. Throws EventsTableBusyError when the lock is not granted within
 * `lockTimeoutMs`. `throughIndex` reads the rows in index order instead of letting PostgreSQL sort a
 * scan of them: no temporary files the size of the table, at the cost of reads in place order over a
 * scattered table. Aborting `signal` cancels the statement on the server (from the other connection),
 * not only the wait for its answer, and the call throws ClusterCancelledError.
 */
export async function clusterEvents(
  db: Database,
  options: {
    onProgress?: (progress: ClusterProgress) => void;
    progressEveryMs?: number;
    lockTimeoutMs?: number;
    throughIndex?: boolean;
    signal?: AbortSignal;
  } = {},
): Promise<ClusterOutcome> {
  const lockTimeoutMs = options.lockTimeoutMs ?? CLUSTER_LOCK_TIMEOUT_MS;
  await sql`analyze events`.execute(db);
  const orderBefore = await placeOrderCorrelation(db);
  const started = performance.now();
  // Progress is for the operator's eyes: a failed reading is skipped, the rewrite's own outcome decides.
  let reading: Promise<void> = Promise.resolve();
  const watch = setInterval(() => {
    reading = reading
      .then(() => readProgress(db))
      .then((progress) => {
        if (progress !== undefined) options.onProgress?.(progress);
      })
      .catch(() => undefined);
  }, options.progressEveryMs ?? 5_000);
  try {
    await db.connection().execute(async (connection) => {
      // The rewrite is one long statement: the job timeout would cut it short, and the lock wait is
      // bounded on its own so that a busy table is an answer, not a queue of stalled appends.
      await sql`set statement_timeout = ${sql.lit(`${CLUSTER_STATEMENT_TIMEOUT_MS}ms`)}`.execute(connection);
      await sql`set lock_timeout = ${sql.lit(`${lockTimeoutMs}ms`)}`.execute(connection);
      // CLUSTER costs a sorted scan against an index scan; with sorts ruled out it takes the index.
      if (options.throughIndex === true) await sql`set enable_sort = off`.execute(connection);
      // A client that goes away does not stop a statement waiting for a lock or reading the table: the
      // server is told to cancel it, from the other connection.
      const backend = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
      let cancelling: Promise<unknown> = Promise.resolve();
      const cancel = () => {
        cancelling = sql`select pg_cancel_backend(${backend.rows[0]?.pid ?? 0})`
          .execute(db)
          .catch(() => undefined);
      };
      options.signal?.addEventListener('abort', cancel, { once: true });
      try {
        if (options.signal?.aborted === true) throw new ClusterCancelledError();
        await sql`cluster events using events_place_position`.execute(connection);
      } catch (error) {
        if ((error as { code?: string }).code === '55P03') throw new EventsTableBusyError(lockTimeoutMs);
        // 57014 is a statement timeout too; only a cancel the operator asked for is theirs.
        if ((error as { code?: string }).code === '57014' && options.signal?.aborted === true)
          throw new ClusterCancelledError();
        throw error;
      } finally {
        options.signal?.removeEventListener('abort', cancel);
        await cancelling;
        await sql`reset enable_sort`.execute(connection);
        await sql`reset lock_timeout`.execute(connection);
        await sql`reset statement_timeout`.execute(connection);
      }
    });
  } finally {
    clearInterval(watch);
    await reading;
  }
  const seconds = (performance.now() - started) / 1000;
  await sql`analyze events`.execute(db);
  const size = await sql<{ bytes: string }>`select pg_relation_size('events') as bytes`.execute(db);
  return {
    orderBefore,
    orderAfter: await placeOrderCorrelation(db),
    tableBytes: Number(size.rows[0]?.bytes ?? 0),
    seconds,
  };
}

async function placeOrderCorrelation(db: Database): Promise<number | null> {
  const result = await sql<{ correlation: number | null }>`
    select correlation from pg_stats
    where schemaname = current_schema() and tablename = 'events' and attname = 'place_id'`.execute(db);
  return result.rows[0]?.correlation ?? null;
}

async function readProgress(db: Database): Promise<ClusterProgress | undefined> {
  const result = await sql<{
    phase: string;
    heap_blks_scanned: string;
    heap_blks_total: string;
    heap_tuples_written: string;
  }>`
    select phase, heap_blks_scanned, heap_blks_total, heap_tuples_written
    from pg_stat_progress_cluster where relid = 'events'::regclass`.execute(db);
  const row = result.rows[0];
  if (row === undefined) return undefined;
  return {
    phase: row.phase,
    heapBlocksScanned: Number(row.heap_blks_scanned),
    heapBlocksTotal: Number(row.heap_blks_total),
    tuplesWritten: Number(row.heap_tuples_written),
  };
}
