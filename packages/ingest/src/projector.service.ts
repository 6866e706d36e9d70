import type { Database } from '@directory/database';
import { foldPlace, toSearchDocument, type StoredPlaceEvent } from '@directory/domain';
import {
  findLaggingPlaceIds,
  markProjected,
  readStreams,
  savePlaceStates,
  type PlaceRow,
} from '@directory/event-store';
import { writeProjections, type Projection, type SearchClient } from '@directory/search-index';

export type ProjectorDependencies = {
  db: Database;
  search: { client: SearchClient; alias: string };
  siteOrigin: string;
};

/** Folds one stream into the row the store keeps: state, version and index document. */
export function foldToRow(
  placeId: string,
  events: ReadonlyArray<StoredPlaceEvent>,
  siteOrigin: string,
): PlaceRow {
  const state = foldPlace(placeId, events);
  return { placeId, stateVersion: state.version, document: toSearchDocument(state, { siteOrigin }) };
}

function projectionOf(row: PlaceRow): Projection {
  return { placeId: row.placeId, version: row.stateVersion, source: row.document };
}

/**
 * Refolds the given places from their full streams, saves the states and writes them to the index. Safe
 * to run twice or concurrently: states only move forward and the index keeps the highest version.
 * `streamsInHand` are whole streams the caller already holds (see `AppendResult.completeStreams`); only
 * the other places' streams are read back.
 */
export async function refoldAndProject(
  deps: ProjectorDependencies,
  placeIds: ReadonlyArray<string>,
  streamsInHand: ReadonlyMap<string, ReadonlyArray<StoredPlaceEvent>> = new Map(),
): Promise<number> {
  if (placeIds.length === 0) return 0;
  const readBack = await readStreams(
    deps.db,
    placeIds.filter((placeId) => !streamsInHand.has(placeId)),
  );
  const streams = placeIds.flatMap((placeId) => {
    const events = streamsInHand.get(placeId) ?? readBack.get(placeId);
    return events === undefined ? [] : [[placeId, events] as const];
  });
  const rows = streams.map(([placeId, events]) => foldToRow(placeId, events, deps.siteOrigin));
  await savePlaceStates(deps.db, rows);
  // If a concurrent worker folded a newer version meanwhile, external versioning keeps its write.
  await writeProjections(deps.search.client, deps.search.alias, rows.map(projectionOf));
  await markProjected(
    deps.db,
    rows.map((row) => ({ placeId: row.placeId, version: row.stateVersion })),
  );
  return rows.length;
}

/**
 * Brings the index back in line with the store: refolds and re-projects places whose projected version
 * lags their stored stream (a lost job, a crash between store and index). Returns how many it projected.
 */
export async function sweepLaggingPlaces(deps: ProjectorDependencies, batchSize = 1_000): Promise<number> {
  let total = 0;
  for (;;) {
    const lagging = await findLaggingPlaceIds(deps.db, { limit: batchSize });
    if (lagging.length === 0) return total;
    total += await refoldAndProject(deps, lagging);
    if (lagging.length < batchSize) return total;
  }
}
