import { sql } from 'kysely';
import type { Database } from '@directory/database';
import {
  profilePageKey,
  resolveMerges,
  type DoctorRef,
  type MergeForward,
  type MergeLink,
} from '@directory/domain';

/**
 * Where each given id forwards to, for the ids merged away into a survivor (merges.ts in the domain
 * resolves chains and loops). One query whatever the batch: the merge links reachable from the ids,
 * followed by primary key (migration 0016). A loop ends the recursion by itself: `union` drops a link
 * already found. Ids that are not merged away, or whose chain loops, are not in the map.
 */
export async function readMergeForwards(
  db: Database,
  placeIds: ReadonlyArray<string>,
): Promise<Map<string, MergeForward>> {
  if (placeIds.length === 0) return new Map();
  const result = await sql<{ place_id: string; merged_into: string; merged_at: Date }>`
    with recursive chain(place_id, merged_into, merged_at) as (
      select place_id, merged_into, merged_at from places
       where place_id = any(${sql.val([...new Set(placeIds)])}::text[]) and merged_into is not null
      union
      select places.place_id, places.merged_into, places.merged_at
        from places join chain on places.place_id = chain.merged_into
       where places.merged_into is not null)
    select place_id, merged_into, merged_at from chain`.execute(db);
  const links: MergeLink[] = result.rows.map((row) => ({
    placeId: row.place_id,
    mergedInto: row.merged_into,
    mergedAt: row.merged_at.toISOString(),
  }));
  return resolveMerges(placeIds, links);
}

/**
 * Where each doctorId (as sent: a place id or a profile URL, with what it names) forwards to, for those
 * that name a merged-away record: an id by its own merge, a profile page by the merged-away place last
 * published under it (migration 0020; the latest merge when several were). At most two queries.
 */
export async function readDoctorForwards(
  db: Database,
  refs: ReadonlyMap<string, DoctorRef>,
): Promise<Map<string, MergeForward>> {
  const placeOf = new Map<string, string>();
  const pages = new Map<string, string[]>();
  for (const [entry, ref] of refs) {
    if ('placeId' in ref) {
      placeOf.set(entry, ref.placeId);
      continue;
    }
    const page = profilePageKey(ref.profile);
    pages.set(page, [...(pages.get(page) ?? []), entry]);
  }
  if (pages.size > 0) {
    const merged = await sql<{ merged_profile: string; place_id: string }>`
      select distinct on (merged_profile) merged_profile, place_id from places
       where merged_profile = any(${sql.val([...pages.keys()])}::text[])
       order by merged_profile, merged_at desc, place_id`.execute(db);
    for (const row of merged.rows) {
      for (const entry of pages.get(row.merged_profile) ?? []) placeOf.set(entry, row.place_id);
    }
  }
  const forwards = await readMergeForwards(db, [...placeOf.values()]);
  const byEntry = new Map<string, MergeForward>();
  for (const [entry, placeId] of placeOf) {
    const forward = forwards.get(placeId);
    if (forward !== undefined) byEntry.set(entry, forward);
  }
  return byEntry;
}
