import type { Database } from '@directory/database';
import { projectPlace, type StoredPlaceEvent } from '@directory/domain';
import {
  claimLaggingPlaces,
  clearProjectionFailures,
  markProjected,
  readStreams,
  readStreamVersions,
  recordProjectionFailures,
  releaseSweepClaim,
  savePlaceStates,
  type SerializedPlaceState,
} from '@directory/event-store';
import {
  ensureStoreMarksIndex,
  flagStoreBehindIndex,
  placeAheadReason,
  placesAheadOfStore,
  writeProjections,
  type PlaceAheadOfStore,
  type Projection,
  type RefusedProjection,
  type SearchClient,
} from '@directory/search-index';
import { traceIndexWrite } from './job-trace.js';

export type ProjectorDependencies = {
  db: Database;
  search: { client: SearchClient; alias: string };
  siteOrigin: string;
  /** Told of every document the index refused for its content (batches and sweeps alike): metrics. */
  onRefused?: (refused: ReadonlyArray<RefusedProjection>) => void;
  /**
   * Told of places the index holds at a higher version than the store has: the store went back in time
   * (a failover that lost commits). Also flagged in the index's store marks, for readiness and status.
   */
  onStoreBehindIndex?: (places: ReadonlyArray<PlaceAheadOfStore>) => void;
};

/** A place's projection as the index write takes it: its document under its state version. */
function indexWriteOf(place: SerializedPlaceState): Projection {
  return {
    placeId: place.placeId,
    version: place.stateVersion,
    source: place.document,
    sourceJson: place.documentJson,
  };
}

export type ProjectOutcome = {
  /** Places whose document the index now holds (written, or a newer version already there). */
  projected: number;
  /** Places whose document the index refused for its content, recorded as projection failures. */
  refused: RefusedProjection[];
};

/**
 * Refolds the given places from their full streams, saves the states and writes them to the index. Safe
 * to run twice or concurrently: states only move forward and the index keeps the highest version.
 * `streamsInHand` are whole streams the caller already holds (see `AppendResult.completeStreams`); only
 * the other places' streams are read back. A document the index refuses for its content is recorded as a
 * projection failure (the place stays lagging, set aside) while the rest are marked projected;
 * infrastructure errors throw, so the caller retries.
 */
export async function refoldAndProject(
  deps: ProjectorDependencies,
  placeIds: ReadonlyArray<string>,
  streamsInHand: ReadonlyMap<string, ReadonlyArray<StoredPlaceEvent>> = new Map(),
): Promise<ProjectOutcome> {
  if (placeIds.length === 0) return { projected: 0, refused: [] };
  const readBack = await readStreams(
    deps.db,
    placeIds.filter((placeId) => !streamsInHand.has(placeId)),
  );
  const streams = placeIds.flatMap((placeId) => {
    const events = streamsInHand.get(placeId) ?? readBack.get(placeId);
    return events === undefined ? [] : [[placeId, events] as const];
  });
  // Serialized once: the same text is stored in `places` and sent to the index.
  const places = streams.map(([placeId, events]): SerializedPlaceState => {
    const place = projectPlace(placeId, events, { siteOrigin: deps.siteOrigin });
    return { ...place, documentJson: JSON.stringify(place.document) };
  });
  await savePlaceStates(deps.db, places);
  await ensureStoreMarksIndex(deps.search.client, deps.search.alias);
  // If a concurrent worker folded a newer version meanwhile, external versioning keeps its write.
  const { refused, newerInIndex } = await traceIndexWrite(deps.search.alias, places.length, () =>
    writeProjections(deps.search.client, deps.search.alias, places.map(indexWriteOf), {
      highWaterPosition: highestPosition(streams),
    }),
  );
  if (newerInIndex.length > 0) await checkStoreNotBehind(deps, newerInIndex);
  const refusedIds = new Set(refused.map((failure) => failure.placeId));
  const projected = places
    .filter((place) => !refusedIds.has(place.placeId))
    .map((place) => ({ placeId: place.placeId, version: place.stateVersion }));
  if (refused.length > 0) deps.onRefused?.(refused);
  await recordProjectionFailures(
    deps.db,
    refused.map((failure) => ({ ...failure, stateVersion: failure.version })),
  );
  await markProjected(deps.db, projected);
  await clearProjectionFailures(deps.db, projected);
  return { projected: projected.length, refused };
}

function highestPosition(streams: ReadonlyArray<readonly [string, ReadonlyArray<StoredPlaceEvent>]>): number {
  let highest = 0;
  for (const [, events] of streams) for (const event of events) highest = Math.max(highest, event.position);
  return highest;
}

/**
 * A stale write is success only while the index's newer version is one the store has too (a concurrent
 * worker's fold). A version the store does not have means the store lost events the index reflects:
 * flagged for an operator, never counted as success silently. The place is still marked projected (the
 * index refuses its store version; the sweeper could only try again for ever): a rebuild from the store
 * (`npm run reindex -- --replay`) repairs it.
 */
async function checkStoreNotBehind(
  deps: ProjectorDependencies,
  newerInIndex: ReadonlyArray<{ placeId: string; indexVersion: number }>,
): Promise<void> {
  const storeVersions = await readStreamVersions(
    deps.db,
    newerInIndex.map((conflict) => conflict.placeId),
  );
  const ahead = placesAheadOfStore(newerInIndex, storeVersions);
  const first = ahead[0];
  if (first === undefined) return;
  await flagStoreBehindIndex(deps.search.client, deps.search.alias, placeAheadReason(first), new Date());
  deps.onStoreBehindIndex?.(ahead);
}

export type SweepOutcome = ProjectOutcome & {
  /** Places this sweeper claimed and refolded (each lagging place is refolded by one sweeper). */
  refolded: number;
};

export type SweepOptions = {
  /** Places claimed and refolded per page. */
  batchSize?: number;
  /**
   * Lag younger than this is left to the job that stored it (see `findLaggingPlaceIds`); 0 sweeps every
   * lagging place at once.
   */
  graceMs?: number;
  /**
   * How long a page's claim lasts. While it lasts other sweepers leave the page alone; if this sweeper
   * dies on the page, the claim lapses and another sweep takes the places. Longer than a page takes.
   */
  claimForMs?: number;
  /** Told of each page refolded, as it is done (a later page may fail): metrics. */
  onPage?: (page: ProjectOutcome) => void;
};

/**
 * Brings the index back in line with the store: refolds and re-projects places whose projected version
 * lags their stored stream (a lost job, a crash between store and index). Walks the lagging places once
 * in place-id order, so every one is reached whatever the first page holds; places refused by the index
 * are recorded and skipped by later sweeps.
 *
 * Every worker sweeps, so each page is claimed first (`claimLaggingPlaces`: a lease in the row, taken in
 * one short statement): concurrent sweepers split the lagging places between them instead of each
 * refolding all of them. A lease rather than a transaction held across the refold: the rows stay free for
 * batches appending to them, no connection is pinned while the index is written, and a claim outlives
 * nothing but its expiry, so a dead worker's places are swept again once it lapses.
 */
export async function sweepLaggingPlaces(
  deps: ProjectorDependencies,
  { batchSize = 1_000, graceMs = 0, claimForMs = 30_000, onPage }: SweepOptions = {},
): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { refolded: 0, projected: 0, refused: [] };
  let after = '';
  for (;;) {
    const claim = await claimLaggingPlaces(deps.db, {
      limit: batchSize,
      after,
      settledForMs: graceMs,
      claimForMs,
    });
    if (claim.placeIds.length === 0) return outcome;
    try {
      const page = await refoldAndProject(deps, claim.placeIds);
      outcome.refolded += page.projected + page.refused.length;
      outcome.projected += page.projected;
      outcome.refused.push(...page.refused);
      onPage?.(page);
    } finally {
      // Best effort: a claim that cannot be released (the database went away) lapses at its expiry.
      await releaseSweepClaim(deps.db, claim).catch(() => undefined);
    }
    if (claim.placeIds.length < batchSize) return outcome;
    after = claim.placeIds[claim.placeIds.length - 1] ?? after;
  }
}
