import { sql, type Kysely } from 'kysely';

/**
 * Stored JSON compresses with lz4 instead of PostgreSQL's default pglz. A place's document (~2.4 KB) is
 * over the TOAST threshold, so every write of it is compressed, and every comparison or copy of it
 * decompressed: the worker writes one per changed place, a replay one per place. lz4 does both in a
 * fraction of pglz's time (docs/benchmarks.md, "What was tried": lz4 for stored documents).
 * Events' payloads get the same for the few over the threshold. The change is to the catalog only (no
 * table rewrite, a moment's lock): values written from now on use lz4, older ones are read as they are.
 * A server built without lz4 (it is optional at build time; the Debian, Ubuntu and official container
 * builds have it) keeps pglz: this is speed, not a requirement.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(await lz4Available(db))) return;
  await sql`alter table places alter column document set compression lz4`.execute(db);
  await sql`alter table events alter column payload set compression lz4`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places alter column document set compression default`.execute(db);
  await sql`alter table events alter column payload set compression default`.execute(db);
}

async function lz4Available(db: Kysely<unknown>): Promise<boolean> {
  const result = await sql<{ available: boolean }>`
    select 'lz4' = any(enumvals) as available from pg_settings
    where name = 'default_toast_compression'`.execute(db);
  return result.rows[0]?.available === true;
}
