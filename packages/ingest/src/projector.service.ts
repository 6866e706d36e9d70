import type { Database } from '@directory/database';
import { foldPlace, isServed, toSearchDocument, type PlaceState } from '@directory/domain';
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

function projectionOf(state: PlaceState, siteOrigin: string): Projection {
  return { placeId: state.placeId, version: state.version, source: toSearchDocument(state, { siteOrigin }) };
}

/**
 * Refolds the given places from their full streams, saves the states and writes them to the index. Safe
 * to run twice or concurrently: states only move forward and the index keeps the highest version.
 */
export async function refoldAndProject(
  deps: ProjectorDependencies,
  placeIds: ReadonlyArray<string>,
): Promise<number> {
  if (placeIds.length === 0) return 0;
  const streams = await readStreams(deps.db, placeIds);
  const rows: PlaceRow[] = [];
  for (const [placeId, events] of streams) {
    const state = foldPlace(placeId, events);
    rows.push({ placeId, state, stateVersion: state.version, served: isServed(state) });
  }
  await savePlaceStates(deps.db, rows);
  // If a concurrent worker folded a newer version meanwhile, external versioning keeps its write.
  await writeProjections(
    deps.search.client,
    deps.search.alias,
    rows.map((row) => projectionOf(row.state, deps.siteOrigin)),
  );
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
    const lagging = await findLaggingPlaceIds(deps.db, batchSize);
    if (lagging.length === 0) return total;
    total += await refoldAndProject(deps, lagging);
    if (lagging.length < batchSize) return total;
  }
}
