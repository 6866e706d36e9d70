import { sql, type Kysely } from 'kysely';

/**
 * `places.document_digest`: the SHA-256 of the stored document's JSON text, written with the document.
 * A replay compares it with its refold's digest to find the rows it must rewrite, instead of reading
 * every stored document back (out of line, compressed) and hashing it: at two million places that read
 * was most of the replay's PostgreSQL time over its floor. Nullable and added without a rewrite; rows
 * written before it have none, and are compared by their stored document instead until their next write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places add column document_digest bytea`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places drop column document_digest`.execute(db);
}
