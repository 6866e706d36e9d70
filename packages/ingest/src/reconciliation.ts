import type { Database } from '@directory/database';
import { countServedPlaces } from '@directory/event-store';
import { countServedDocuments, type SearchClient } from '@directory/search-index';

export type ServedCounts = { postgresql: number; index: number };

/**
 * Served places in the store against served documents behind the read alias. Equal at rest; while the
 * projector works the index trails by the lag; a persistent gap means the index lost or kept something
 * the store disagrees with (a reindex fixes it).
 */
export async function readServedCounts(
  db: Database,
  client: SearchClient,
  alias: string,
): Promise<ServedCounts> {
  const [postgresql, index] = await Promise.all([countServedPlaces(db), countServedDocuments(client, alias)]);
  return { postgresql, index };
}
