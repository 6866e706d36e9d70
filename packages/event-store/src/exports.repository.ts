import type { Database } from '@directory/database';
import type { CountryCode, ListedPlace, SnapshotHorizon } from '@directory/domain';
import { readListedPlaces, readSnapshotHorizon } from './changes.repository.js';

/**
 * One export of a dataset (`GET /api/v1/exports/{country}`): its horizon, then its places page by page,
 * each page ONE statement of its own (its own short transaction, a pool connection for as long as the
 * page takes). No transaction stays open while the client reads, however slowly: a long snapshot would
 * hold back vacuum for the whole database for as long as the slowest client.
 *
 * Every page is read at the horizon (`readListedPlaces`), as a resumed export always was: a place is
 * listed when the horizon shows its current state; one changed since (or by a transaction running
 * then) is left out, and `feedAfterSnapshot(horizon)` delivers its newest state. So the export and the
 * feed from its cursor together give every record exactly once in its newest state, whichever page a
 * change lands before.
 *
 * Read from the store, not from an Elasticsearch point in time: the index lags the store and holds no
 * feed position, so only the store's horizon pairs exactly with a changes-feed cursor.
 */
export type StoreExport = {
  horizon: SnapshotHorizon;
  /** The places after `after`, in place-id order, `pageSize` at a time, each page read when asked for. */
  pages: (after: string, pageSize: number) => AsyncGenerator<ListedPlace[], void, undefined>;
};

/**
 * Fixes an export's horizon: the dataset's own (a new export, one statement), or `resumed` (the horizon
 * of the export a client continues; nothing is read).
 */
export async function openExport(
  db: Database,
  options: { country: CountryCode; resumed?: SnapshotHorizon },
): Promise<StoreExport> {
  const { country, resumed } = options;
  const horizon = resumed ?? (await readSnapshotHorizon(db, country));
  async function* pages(after: string, pageSize: number): AsyncGenerator<ListedPlace[], void, undefined> {
    let from = after;
    for (;;) {
      const page = await readListedPlaces(db, { country, horizon, after: from, limit: pageSize });
      if (page.length > 0) yield page;
      const last = page[page.length - 1];
      if (last === undefined || page.length < pageSize) return;
      from = last.placeId;
    }
  }
  return { horizon, pages };
}
