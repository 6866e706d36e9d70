import { sql, type Kysely } from 'kysely';

/**
 * `places.doctor_digest`: the SHA-256 of the document's `doctor` JSON text, written with the document.
 * A write compares it to decide whether a feed consumer sees a change (migration 0005), instead of
 * parsing both documents for their `doctor` (PostgreSQL parses a `json` value whole for `->`): that
 * parse was most of the statement's cost when a replay rewrites every row. Nullable and added without a
 * rewrite; rows written before it have none, and the write that first rewrites them compares against
 * their stored document instead (the same digest, computed from it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places add column doctor_digest bytea`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places drop column doctor_digest`.execute(db);
}
