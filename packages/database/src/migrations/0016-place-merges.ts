import { sql, type Kysely } from 'kysely';

/**
 * `places.merged_into` and `places.merged_at`: a merged-away place's own merge (its latest
 * `place.merged`, not undone by a later `place.unmerged`), written by the worker with the place's
 * document, under the same forward-only version check, so a replay or a stale fold cannot bring back
 * an old merge. Beside the document rather than in it: the index never needs them (a merged-away place
 * is a tombstone there), and a 404 or a batch's `merged` map finds them by primary key, following a
 * chain (A into B into C) in one recursive query. Null: not merged away (every row before this).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table places add column merged_into text, add column merged_at timestamptz,
      add constraint places_merge_dated check ((merged_into is null) = (merged_at is null))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table places drop constraint places_merge_dated, drop column merged_into,
    drop column merged_at`.execute(db);
}
