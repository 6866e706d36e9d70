import { sql, type Kysely } from 'kysely';

/**
 * `sandbox_marker`: at most one row, written by `directory sandbox load` when it prepares a database as
 * the sandbox, naming the sample data it loaded (seed and event count). The loader replaces only a
 * database that holds this row and no event outside that sample data, or one that is completely empty,
 * so a live database can never be emptied by a sandbox load, however its URL is spelled. The live
 * database has the table (one schema for both) and never a row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sandbox_marker (
      only_row boolean primary key default true check (only_row),
      sample_seed integer not null,
      sample_events integer not null check (sample_events > 0),
      marked_at timestamptz not null default now())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sandbox_marker`.execute(db);
}
