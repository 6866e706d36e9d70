import type { Client } from '@elastic/elasticsearch';
import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { storedMergeOf, toSearchDocument, type PlaceState } from '@directory/domain';
import { savePlaceStates } from '@directory/event-store';
import { SITE_ORIGIN, indexPlaces } from './place-fixtures.js';

/** Where folded states are served from: the store (with the changes feed's places table) and the index. */
export type ServingStores = { db: Database; client: Client; alias: string };

/**
 * Stores folded states the way the worker does, in the store and the index (for search and get), and
 * resolves once the changes feed shows them.
 */
export async function storeServedPlaces(stores: ServingStores, states: PlaceState[]): Promise<void> {
  await savePlaceStates(
    stores.db,
    states.map((state) => {
      // A merged-away state's merge is stored beside its tombstone, as the worker stores it.
      const merge = storedMergeOf(state);
      return {
        placeId: state.placeId,
        stateVersion: state.version,
        document: toSearchDocument(state, { siteOrigin: SITE_ORIGIN }),
        ...(merge === null ? {} : { merge }),
      };
    }),
  );
  await indexPlaces(stores.client, stores.alias, states);
  await waitForFeedFence(stores.db);
}

/**
 * The feed shows a change once every transaction older than it has finished, anywhere on the shared
 * server: waits for that, as a consumer polling would, for what this connection has written so far.
 */
export async function waitForFeedFence(db: Database): Promise<void> {
  const mine = await sql<{ xid: string }>`select pg_current_xact_id()::text as xid`.execute(db);
  const target = BigInt(mine.rows[0]?.xid ?? '0');
  for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
    const fence = await sql<{ xmin: string }>`
      select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(db);
    if (BigInt(fence.rows[0]?.xmin ?? '0') > target) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the feed fence did not pass within 20 s');
}
