import { sql, type Kysely } from 'kysely';

/**
 * `places.merged_profile`: the profile page (`country/citySlug/profileSlug`) a merged-away place was last
 * published under, written by the worker with `merged_into` under the same forward-only version check.
 * A profile URL names a page, not an id: a request for the page of a merged-away record is answered
 * with the survivor, found here (the index holds only a tombstone for the merged-away place). Partial
 * index: only merged-away rows carry it. Rows merged before this migration have none until
 * `directory reindex --replay` refolds them; until then their pages answer 404 as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table places add column merged_profile text,
      add constraint places_merged_profile_merged check (merged_profile is null or merged_into is not null)`.execute(
    db,
  );
  await sql`create index places_merged_profile on places (merged_profile) where merged_profile is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index places_merged_profile`.execute(db);
  await sql`alter table places drop constraint places_merged_profile_merged, drop column merged_profile`.execute(
    db,
  );
}
