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
  // The marks first, the store after: every high-water write follows the commit of the events it covers,
  // so a mark read before the store's newest position can only be above it if the store lost commits.
  // Read together (or the other way round), an ingest landing between the two reads looks like a loss.
  const marks = await readStoreMarks(search.client, search.alias);
  const newest = await lastPosition(db);
  const behind = storeBehindIndex(marks, newest);
  if (behind === null) return null;
  if (behind.newlyFound) await flagStoreBehindIndex(search.client, search.alias, behind.reason, now());
  return behind.message;
}
