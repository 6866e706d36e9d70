import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { resolveMerges, type MergeForward, type MergeLink } from '@directory/domain';

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
