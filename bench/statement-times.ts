import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { BLOCK_BYTES, gigabytes } from './phase-reads.js';

// Where PostgreSQL's time in a phase went, statement by statement, when the bench's private cluster runs
// with pg_stat_statements (`--statements`): the phase's CPU line says how much, this says on what.

/** One normalized statement's share of a phase. */
export type StatementTime = {
  query: string;
  calls: number;
  totalMs: number;
  /** Blocks found in PostgreSQL's buffers, and read into them (from the OS cache or the disk). */
  sharedBlocksHit: number;
  sharedBlocksRead: number;
};

/** The longest first line a statement is shown with: enough to tell the store's statements apart. */
const QUERY_CHARACTERS = 110;

/**
 * Whether the server loads pg_stat_statements; if it does, creates the extension in the bench's database
 * and clears what it has counted so far.
 */
export async function startStatementTimes(db: Database): Promise<boolean> {
  const loaded = await sql<{ libraries: string }>`
    select current_setting('shared_preload_libraries') as libraries`.execute(db);
  if (!(loaded.rows[0]?.libraries ?? '').split(',').some((name) => name.trim() === 'pg_stat_statements')) {
    return false;
  }
  await sql`create extension if not exists pg_stat_statements`.execute(db);
  await resetStatementTimes(db);
  return true;
}

/** Clears what pg_stat_statements has counted, so that the next `statementTimes` covers one phase. */
export async function resetStatementTimes(db: Database): Promise<void> {
  await sql`select pg_stat_statements_reset()`.execute(db);
}

/** The `top` statements by total time since the last reset, longest first. */
export async function statementTimes(db: Database, top: number): Promise<StatementTime[]> {
  const result = await sql<{
    query: string;
    calls: string;
    total_ms: number;
    hit: string;
    read: string;
  }>`
    select query, calls::text, total_exec_time as total_ms, shared_blks_hit::text as hit,
           shared_blks_read::text as read
    from pg_stat_statements
    where dbid = (select oid from pg_database where datname = current_database())
    order by total_exec_time desc
    limit ${top}`.execute(db);
  return result.rows.map((row) => ({
    query: oneLine(row.query),
    calls: Number(row.calls),
    totalMs: row.total_ms,
    sharedBlocksHit: Number(row.hit),
    sharedBlocksRead: Number(row.read),
  }));
}

/** A statement's text on one line, its runs of white space as one space, cut at QUERY_CHARACTERS. */
export function oneLine(query: string): string {
  const words = query.split(/\s+/).filter((word) => word.length > 0);
  const line = words.join(' ');
  return line.length > QUERY_CHARACTERS ? `${line.slice(0, QUERY_CHARACTERS - 1)}…` : line;
}

/** One line a statement: its total seconds, calls, and blocks hit and read, then its text. */
export function formatStatementTime(statement: StatementTime): string {
  return (
    `${(statement.totalMs / 1000).toFixed(1)} s, ${statement.calls} calls, ` +
    `${gigabytes(statement.sharedBlocksHit * BLOCK_BYTES)} hit / ` +
    `${gigabytes(statement.sharedBlocksRead * BLOCK_BYTES)} read: ${statement.query}`
  );
}
