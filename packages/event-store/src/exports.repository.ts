import { sql } from 'kysely';
import type { Database } from '@directory/database';
import type { CountryCode, ListedPlace, SnapshotHorizon } from '@directory/domain';
import { readListedPlaces, readSnapshotHorizon } from './changes.repository.js';

/**
 * One export of a dataset (`GET /api/v1/exports/{country}`), read in ONE `repeatable read, read only`
 * transaction: its horizon first (or the horizon of the export being resumed), then its places page by
 * page. Every page comes from the same MVCC snapshot, so the places listed are exactly those the horizon
 * shows, and `feedAfterSnapshot(horizon)` delivers everything after them.
 *
 * Read from the store, not from an Elasticsearch point in time: the index lags the store and holds no
 * feed position, so only the store's snapshot pairs exactly with a changes-feed cursor.
 */
export type StoreExport = {
  horizon: SnapshotHorizon;
  /**
   * The places after `after`, in place-id order, `pageSize` at a time. The transaction ends when the
   * pages do, or when the consumer stops early (`return()` on the generator runs its `finally`).
   */
  pages: (after: string, pageSize: number) => AsyncGenerator<ListedPlace[], void, undefined>;
  /** Ends the transaction and frees its connection; safe to call again, and without reading a page. */
  release: () => Promise<void>;
};

/** How long an export's transaction may wait for its client between two pages. */
export const EXPORT_IDLE_LIMIT_S = 120;

/**
 * Opens an export's transaction and fixes its horizon: the dataset's own (a new export), or `resumed`
 * (the horizon of the export a client continues: the places changed since are left to the feed).
 */
export async function openExport(
  db: Database,
  options: { country: CountryCode; resumed?: SnapshotHorizon },
): Promise<StoreExport> {
  const { country, resumed } = options;
  const trx = await db
    .startTransaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute();
  let released = false;
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
    // Read only: rolling back ends it as a commit would, and also after a failed statement.
    await trx.rollback().execute();
  };
  let horizon: SnapshotHorizon;
  try {
    // Between pages the transaction waits for the client to take the last one: a slow but steady
    // reader (a megabyte per page) must not hit the database's short idle limit, which is meant for
    // forgotten transactions. A client that stops reading altogether is still cut, and resumes.
    await sql`set local idle_in_transaction_session_timeout = ${sql.lit(`${EXPORT_IDLE_LIMIT_S}s`)}`.execute(
      trx,
    );
    horizon = resumed ?? (await readSnapshotHorizon(trx, country));
  } catch (error) {
    await release();
    throw error;
  }
  async function* pages(after: string, pageSize: number): AsyncGenerator<ListedPlace[], void, undefined> {
    try {
      let from = after;
      for (;;) {
        const page = await readListedPlaces(trx, { country, horizon, after: from, limit: pageSize });
        if (page.length > 0) yield page;
        const last = page[page.length - 1];
        if (last === undefined || page.length < pageSize) return;
        from = last.placeId;
      }
    } finally {
      await release();
    }
  }
  return { horizon, pages, release };
}
