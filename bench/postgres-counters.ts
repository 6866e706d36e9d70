import { sql } from 'kysely';
import type { Database } from '@directory/database';

// PostgreSQL's cumulative counters a bench reads before and after a phase: the phase is their change.

/**
 * The server's write-ahead log so far: bytes (the insert position: exact at any moment) and full-page
 * images (pg_stat_wal: a backend reports its count when it goes idle, at most once a second, and when it
 * exits). The whole cluster's.
 */
export async function walCounters(db: Database): Promise<{ bytes: number; fpi: number }> {
  const { rows } = await sql<{ bytes: string; fpi: string }>`
    select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::text as bytes, wal_fpi::text as fpi
    from pg_stat_wal`.execute(db);
  return { bytes: Number(rows[0]?.bytes ?? 0), fpi: Number(rows[0]?.fpi ?? 0) };
}

/**
 * Rows of `table` updated so far, and how many of them in place (HOT). Another backend's counts arrive
 * when it goes idle or exits; this connection's own are flushed first.
 */
export async function tableUpdates(db: Database, table: string): Promise<{ updates: number; hot: number }> {
  await sql`select pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<{ updates: number; hot: number }>`
    select n_tup_upd::float8 as updates, n_tup_hot_upd::float8 as hot
    from pg_stat_user_tables where relname = ${table}`.execute(db);
  return { updates: rows[0]?.updates ?? 0, hot: rows[0]?.hot ?? 0 };
}
