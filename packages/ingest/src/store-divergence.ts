import type { Database } from '@directory/database';
import { lastPosition } from '@directory/event-store';
import {
  flagStoreBehindIndex,
  readStoreMarks,
  storeBehindIndex,
  type SearchClient,
} from '@directory/search-index';

/**
 * Why the index reflects store history the store no longer has (a failover to a standby that missed
 * commits, a restored backup), naming the repair; null when it does not. A finding from the high-water
 * mark is kept in the marks at once (see `store-marks.ts`), so it outlasts the new primary's positions
 * passing the mark.
 */
export async function readStoreBehindIndex(
  db: Database,
  search: { client: SearchClient; alias: string },
  now: () => Date = () => new Date(),
): Promise<string | null> {
  const [marks, newest] = await Promise.all([readStoreMarks(search.client, search.alias), lastPosition(db)]);
  const behind = storeBehindIndex(marks, newest);
  if (behind === null) return null;
  if (behind.newlyFound) await flagStoreBehindIndex(search.client, search.alias, behind.reason, now());
  return behind.message;
}
