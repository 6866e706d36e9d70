import { sql, type Kysely } from 'kysely';

/**
 * `places.document_digest` and `places.doctor_digest`: SHA-256 of the stored document's JSON text and of
 * its `doctor` member's, computed by the writer (event-store place-digests.ts). The places upsert compares
 * these 32 bytes instead of the documents' texts, which PostgreSQL had to detoast and, for the doctor,
 * parse: about 30% of the upsert's PostgreSQL CPU. Rows written before this migration keep null digests
 * and are compared by text as before, until their next write stores them: no backfill (hashing every
 * document here would cost what the comparison saves). Whatever writes `document` writes both digests,
 * or nulls `document_digest`. A null `doctor_digest` beside a digest of the document is a document without
 * a doctor (a tombstone).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places add column document_digest bytea, add column doctor_digest bytea`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places drop column document_digest, drop column doctor_digest`.execute(db);
}
