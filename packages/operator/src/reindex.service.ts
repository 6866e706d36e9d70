import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import type { Database } from '@directory/database';
import { projectPlace } from '@directory/domain';
import {
  allPlaceIds,
  countServedPlaces,
  countPlacesUpdatedSince,
  countProjections,
  databaseNow,
  lastPosition,
  readStreams,
  replacePlaceStates,
  setAsideVersions,
  streamProjections,
  type SerializedPlaceState,
  type StoredProjection,
} from '@directory/event-store';
import {
  concreteIndexName,
  createDoctorsIndex,
  indexShapeSettings,
  type IndexShape,
  indicesBehindAlias,
  resetStoreMarks,
  waitForIndexHealth,
  writeSerializedProjections,
  type SearchClient,
} from '@directory/search-index';
import {
  deletableLeftovers,
  leaseIsLive,
  requiredHealth,
  type HealthSetting,
  type ReindexLease,
} from './reindex-guard.js';
import { acquireReindexLock, readReindexLease } from './reindex-lock.js';

export type ReindexOptions = {
  db: Database;
  client: SearchClient;
  alias: string;
  siteOrigin: string;
  /**
   * Refold every stream from the event store (the fold or the allowlist changed) and write each state to
   * the places table and the new index in the same pass, instead of loading the table.
   */
  replay?: boolean;
  keepOld?: boolean;
  dryRun?: boolean;
  /** Rows written this long before a phase began are caught up again (clock skew, in-flight workers). */
  catchUpMarginMs?: number;
  sampleSize?: number;
  /** Awaited: a caller may hold the run between two steps (tests write concurrently that way). */
  onProgress?: (event: ReindexProgress) => void | Promise<void>;
  now?: () => Date;
  /** Shards and replicas of the new index (ELASTICSEARCH_SHARDS, ELASTICSEARCH_REPLICAS); default 1 and 0. */
  shape?: IndexShape;
  /**
   * The health the new index must reach before the swap (REINDEX_WAIT_FOR_HEALTH): `auto` (default) is
   * green when it has replicas, yellow otherwise; within `healthTimeoutMs` (default 10 minutes).
   */
  waitForHealth?: HealthSetting;
  healthTimeoutMs?: number;
  /** Take the lock even if another run holds it (that run then stops before its swap). */
  breakLock?: boolean;
  /** How long the lock outlives a run that stopped renewing it (default 60 s, renewed every 15 s). */
  lockLeaseMs?: number;
};

export type ReindexProgress =
  | { phase: 'replay'; done: number }
  | { phase: 'load'; done: number; total: number }
  | { phase: 'catch-up'; done: number }
  | { phase: 'leftovers'; indices: string[] }
  | { phase: 'lock' | 'health' | 'verify' | 'swap' | 'cleanup'; detail: string };

export type ReindexSummary = {
  newIndex: string;
  previousIndices: string[];
  loaded: number;
  caughtUp: number;
  servedCount: number;
  indexedCount: number;
  replayed: number;
  removedIndices: string[];
  /** `<alias>__*` indices of interrupted runs: deleted (a dry run only lists them). */
  leftovers: string[];
  /** A dry run: the lease of a run in progress, if any. */
  runningLease?: ReindexLease;
  dryRun: boolean;
};

export class ReindexVerificationError extends Error {
  override name = 'ReindexVerificationError';
}

/** The new index did not reach the required health in time: the alias was not moved. */
export class ReindexHealthError extends Error {
  override name = 'ReindexHealthError';
}

/** The swap request failed and the alias could not be read afterwards: where it points is unknown. */
export class ReindexSwapUnknownError extends Error {
  override name = 'ReindexSwapUnknownError';
  constructor(alias: string, newIndex: string, cause: unknown) {
    super(
      `the swap of alias ${alias} to ${newIndex} got no answer ` +
        `(${cause instanceof Error ? cause.message : String(cause)}) and the alias could not be read: it serves ` +
        `either ${newIndex} or the previous index, and both are kept. Run the reindex again: it keeps the ` +
        'index the alias serves, deletes the other and rebuilds.',
      { cause },
    );
  }
}

/**
 * The alias already serves the new index, but catching up the changes written to the previous one
 * during the swap failed: the new index may miss them. The previous index is kept; running the reindex
 * again rebuilds from the store (and deletes the kept index as a leftover).
 */
export class ReindexCatchUpError extends Error {
  override name = 'ReindexCatchUpError';
  constructor(
    readonly alias: string,
    readonly newIndex: string,
    readonly previousIndices: ReadonlyArray<string>,
    cause: unknown,
  ) {
    super(
      `alias ${alias} now points at ${newIndex}, but catching up the changes written during the swap failed ` +
        `(${cause instanceof Error ? cause.message : String(cause)}); it may miss them. ` +
        `Previous index kept: ${previousIndices.join(', ') || 'none'}. Run the reindex again: it rebuilds from the store.`,
      { cause },
    );
  }
}

const BULK_PAGE = 2_000;
/**
 * Places per replay page. Smaller than a copy's page: each place's events and refolded state are held
 * too, and at 2,000 the pages' statements spill to disk (temp files); the replay's PostgreSQL CPU and
 * peak RSS at each size are measured by `npm run bench:reindex` (docs/benchmarks.md).
 */
const REPLAY_PAGE = 1_000;
const CATCH_UP_ATTEMPTS = 3;

/**
 * Zero-downtime rebuild: a fresh `<alias>__<timestamp>` index is loaded from the places table while
 * readers and the worker keep using the alias; changes made meanwhile are caught up, the result is
 * verified, and only then does the alias move, in one atomic request. Writes carry external versions,
 * so catching up the same place twice, or racing the worker, can never put an older record in place.
 * Tombstones are copied too: without them the new index would accept a delayed older write of a
 * suppressed place and serve it again. Any failure before the swap deletes the new index and leaves the
 * alias where it was; a failure after it is a `ReindexCatchUpError` (the alias moved, the old index is kept).
 */
export async function reindex(options: ReindexOptions): Promise<ReindexSummary> {
  const now = options.now ?? (() => new Date());
  const newIndex = concreteIndexName(options.alias, now());
  if (options.dryRun) return dryRunSummary(options, newIndex, now);
  return buildUnderLock(options, newIndex, now);
}

type ReportProgress = (event: ReindexProgress) => Promise<void>;

function progressReporter(options: ReindexOptions): ReportProgress {
  return async (event) => {
    await options.onProgress?.(event);
  };
}

function emptySummary(options: ReindexOptions, newIndex: string, previousIndices: string[]): ReindexSummary {
  return {
    newIndex,
    previousIndices,
    loaded: 0,
    caughtUp: 0,
    servedCount: 0,
    indexedCount: 0,
    replayed: 0,
    removedIndices: [],
    leftovers: [],
    dryRun: options.dryRun ?? false,
  };
}

/** What a run would find: the indices behind the alias, a run in progress, leftovers, the served count. */
async function dryRunSummary(
  options: ReindexOptions,
  newIndex: string,
  now: () => Date,
): Promise<ReindexSummary> {
  const { db, client, alias } = options;
  const summary = emptySummary(options, newIndex, await indicesBehindAlias(client, alias));
  const lease = await readReindexLease(client, alias);
  if (lease && leaseIsLive(lease, now())) summary.runningLease = lease;
  summary.leftovers = deletableLeftovers(
    await concreteIndices(client, alias),
    summary.previousIndices,
    lease,
    now(),
  );
  summary.servedCount = await countServedPlaces(db);
  return summary;
}

/**
 * Only the holder of the lock builds, and only it deletes leftovers: another run's index is never
 * one. The alias is read after taking the lock: a run that finished just before has moved it.
 */
async function buildUnderLock(
  options: ReindexOptions,
  newIndex: string,
  now: () => Date,
): Promise<ReindexSummary> {
  const { client, alias } = options;
  const progress = progressReporter(options);
  const leaseMs = options.lockLeaseMs ?? LOCK_LEASE_MS;
  const lock = await acquireReindexLock(client, alias, {
    index: newIndex,
    leaseMs,
    heartbeatMs: Math.max(1_000, Math.floor(leaseMs / 4)),
    breakLock: options.breakLock,
    now,
  });
  try {
    const summary = emptySummary(options, newIndex, await indicesBehindAlias(client, alias));
    if (lock.replaced) await reportTakenOverLock(options, lock.replaced, progress);
    summary.leftovers = deletableLeftovers(
      await concreteIndices(client, alias),
      summary.previousIndices,
      lock.lease,
      now(),
    );
    await deleteLeftovers(client, summary.leftovers, progress);
    await build(options, summary, lock.confirm, progress);
    return summary;
  } finally {
    await lock.release();
  }
}

async function reportTakenOverLock(
  options: ReindexOptions,
  replaced: ReindexLease,
  progress: ReportProgress,
): Promise<void> {
  await progress({
    phase: 'lock',
    detail:
      `took over the lock of ${replaced.holder} (building ${replaced.index} since ` +
      `${replaced.startedAt}; ${options.breakLock ? 'broken with --break-lock' : 'its lease had expired'})`,
  });
}

async function deleteLeftovers(
  client: SearchClient,
  leftovers: string[],
  progress: ReportProgress,
): Promise<void> {
  if (leftovers.length === 0) return;
  await progress({ phase: 'leftovers', indices: leftovers });
  for (const index of leftovers) await client.indices.delete({ index }, { ignore: [404] });
}

const LOCK_LEASE_MS = 60_000;
const HEALTH_TIMEOUT_MS = 600_000;

/** Loads, verifies and swaps in the new index, then catches up, resets the store marks and cleans up. */
async function build(
  options: ReindexOptions,
  summary: ReindexSummary,
  confirmLock: () => Promise<void>,
  progress: ReportProgress,
): Promise<void> {
  const { db, client, alias } = options;
  const { newIndex, previousIndices } = summary;
  const catchUp = await openCatchUpWindow(options, summary, progress);
  // The new index is built from the store as of here on: the position its store marks start again from.
  const storePositionAtLoad = await lastPosition(db);
  const shape = options.shape ?? { shards: 1, replicas: 0 };
  await createIndexForBulkLoad(client, newIndex, shape);
  let swapSent = false;
  try {
    await loadNewIndex(options, summary, progress);
    await waitForRequiredHealth(options, newIndex, shape, progress);
    await verify(options, newIndex, summary, catchUp, progress);
    // A run whose lease was taken over (it was presumed dead) or broken must not move the alias.
    await confirmLock();
    await progress({ phase: 'swap', detail: `${alias} → ${newIndex}` });
    swapSent = true;
    await moveAlias(client, alias, newIndex, previousIndices);
  } catch (error) {
    await keepServedIndexAfterFailure(client, alias, newIndex, swapSent, error);
  }
  await catchUpAfterSwap(catchUp, alias, newIndex, previousIndices);
  await resetStoreMarksAfterSwap(client, alias, storePositionAtLoad, progress);
  if (!options.keepOld) await deletePreviousIndices(client, summary, progress);
}

/**
 * Opens the catch-up window before the load (or the replay) reads anything: a worker write to a place
 * the load has already passed is caught up; what the load itself wrote is not. The returned catch-up
 * projects every row written since the previous one began and returns this one's start (less the
 * margin).
 */
async function openCatchUpWindow(
  options: ReindexOptions,
  summary: ReindexSummary,
  progress: ReportProgress,
): Promise<() => Promise<Date>> {
  const { db, client } = options;
  const margin = options.catchUpMarginMs ?? 30_000;
  const loadStartedAt = await databaseNow(db);
  let catchUpFrom = new Date(loadStartedAt.getTime() - margin);
  return async () => {
    const startedAt = await databaseNow(db);
    const changed = streamProjections(db, { updatedSince: catchUpFrom, pageSize: BULK_PAGE });
    await copyProjections(changed, client, summary.newIndex, async (count) => {
      summary.caughtUp += count;
      await progress({ phase: 'catch-up', done: summary.caughtUp });
    });
    catchUpFrom = new Date(startedAt.getTime() - margin);
    return catchUpFrom;
  };
}

/** Bulk-load settings: no refresh and no replicas while loading; restored before the swap. */
async function createIndexForBulkLoad(client: SearchClient, index: string, shape: IndexShape): Promise<void> {
  await createDoctorsIndex(client, index, {
    ...indexShapeSettings(shape),
    refresh_interval: '-1',
    number_of_replicas: 0,
  });
}

/** Refolds every stream into the new index (a replay), or copies the places table into it. */
async function loadNewIndex(
  options: ReindexOptions,
  summary: ReindexSummary,
  progress: ReportProgress,
): Promise<void> {
  if (options.replay) {
    await replayInto(options, summary.newIndex, async (replayed, written) => {
      summary.replayed += replayed;
      summary.loaded += written;
      await progress({ phase: 'replay', done: summary.replayed });
    });
    return;
  }
  const documents = await countProjections(options.db);
  await copyProjections(
    streamProjections(options.db, { pageSize: BULK_PAGE }),
    options.client,
    summary.newIndex,
    async (count) => {
      summary.loaded += count;
      await progress({ phase: 'load', done: summary.loaded, total: documents });
    },
  );
}

/**
 * Restores refresh and replicas, then waits for the required health. Swapping to an index whose
 * replicas are not yet assigned would leave the alias one node loss away from a red index; the old
 * index is still complete and served while we wait.
 */
async function waitForRequiredHealth(
  options: ReindexOptions,
  newIndex: string,
  shape: IndexShape,
  progress: ReportProgress,
): Promise<void> {
  const { client } = options;
  await client.indices.putSettings({
    index: newIndex,
    settings: { refresh_interval: '1s', number_of_replicas: shape.replicas },
  });
  const health = requiredHealth(options.waitForHealth ?? 'auto', shape.replicas);
  const timeoutMs = options.healthTimeoutMs ?? HEALTH_TIMEOUT_MS;
  await progress({
    phase: 'health',
    detail: `waiting up to ${timeoutMs / 1000} s for ${newIndex} to be ${health}`,
  });
  const reached = await waitForIndexHealth(client, newIndex, health, timeoutMs);
  if (!reached.reached) {
    throw new ReindexHealthError(
      `${newIndex} did not become ${health} within ${timeoutMs / 1000} s (status ${reached.status}, ` +
        `${reached.unassignedShards} unassigned shards${reached.error ? `; last error: ${reached.error}` : ''}). ` +
        (health === 'green'
          ? 'Does the cluster have more nodes than ELASTICSEARCH_REPLICAS? On a one-node cluster set REINDEX_WAIT_FOR_HEALTH=yellow.'
          : 'Is every node of the cluster up?'),
    );
  }
}

/** Moves the alias from the previous indices to the new one, in one atomic request. */
async function moveAlias(
  client: SearchClient,
  alias: string,
  newIndex: string,
  previousIndices: ReadonlyArray<string>,
): Promise<void> {
  await client.indices.updateAliases({
    actions: [
      ...previousIndices.map((index) => ({ remove: { index, alias } })),
      { add: { index: newIndex, alias } },
    ],
  });
}

/**
 * After a failure of the build: the new index is deleted and the error thrown again, unless the alias
 * already serves it. A swap whose answer was lost (a timeout, a dropped connection) may have been
 * applied: the index the alias serves is never deleted, and when the alias moved the run goes on.
 */
async function keepServedIndexAfterFailure(
  client: SearchClient,
  alias: string,
  newIndex: string,
  swapSent: boolean,
  error: unknown,
): Promise<void> {
  const swap = swapSent ? await swapOutcome(client, alias, newIndex) : 'unchanged';
  if (swap === 'unknown') throw new ReindexSwapUnknownError(alias, newIndex, error);
  if (swap === 'unchanged') {
    await client.indices.delete({ index: newIndex }, { ignore: [404] });
    throw error;
  }
}

/** Writes that went to the old index between the last catch-up and the swap are replayed from the store. */
async function catchUpAfterSwap(
  catchUp: () => Promise<Date>,
  alias: string,
  newIndex: string,
  previousIndices: ReadonlyArray<string>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await catchUp();
      return;
    } catch (error) {
      if (attempt >= CATCH_UP_ATTEMPTS)
        throw new ReindexCatchUpError(alias, newIndex, previousIndices, error);
      await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
    }
  }
}

/**
 * The live index is now a function of the store: a store that had gone back in time behind the old
 * index (`store-marks.ts`) is no longer behind this one, so what the index has seen starts again.
 */
async function resetStoreMarksAfterSwap(
  client: SearchClient,
  alias: string,
  storePositionAtLoad: number,
  progress: ReportProgress,
): Promise<void> {
  try {
    await resetStoreMarks(client, alias, storePositionAtLoad);
  } catch (error) {
    await progress({
      phase: 'cleanup',
      detail: `could not reset the store marks (${error instanceof Error ? error.message : String(error)}); run the reindex again`,
    });
  }
}

async function deletePreviousIndices(
  client: SearchClient,
  summary: ReindexSummary,
  progress: ReportProgress,
): Promise<void> {
  for (const index of summary.previousIndices) {
    await progress({ phase: 'cleanup', detail: `deleting ${index}` });
    try {
      await client.indices.delete({ index }, { ignore: [404] });
      summary.removedIndices.push(index);
    } catch (error) {
      // The new index is complete and served: a leftover is no failure, and the next run removes it.
      await progress({
        phase: 'cleanup',
        detail: `could not delete ${index} (${error instanceof Error ? error.message : String(error)}); the next reindex removes it`,
      });
    }
  }
}

/**
 * Where the alias points after a swap request that failed: moved to the new index, or not, or unknown.
 * The connection that lost the answer may take the next request down with it, so the alias is read a
 * few times before the answer is "unknown".
 */
async function swapOutcome(
  client: SearchClient,
  alias: string,
  newIndex: string,
): Promise<'moved' | 'unchanged' | 'unknown'> {
  for (let attempt = 1; attempt <= SWAP_READ_ATTEMPTS; attempt += 1) {
    try {
      return (await indicesBehindAlias(client, alias)).includes(newIndex) ? 'moved' : 'unchanged';
    } catch {
      if (attempt < SWAP_READ_ATTEMPTS) await sleep(SWAP_READ_PAUSE_MS);
    }
  }
  return 'unknown';
}

const SWAP_READ_ATTEMPTS = 3;
const SWAP_READ_PAUSE_MS = 250;

/**
 * Copies stored documents into the index, reading the next page from PostgreSQL while the current one
 * is being indexed, so the database and Elasticsearch work at the same time. One page in flight each
 * way: memory stays bounded whatever the table size.
 */
async function copyProjections(
  pages: AsyncGenerator<StoredProjection[]>,
  client: SearchClient,
  index: string,
  onCopied: (count: number) => Promise<void>,
): Promise<void> {
  let next = pages.next();
  for (;;) {
    const page = await next;
    if (page.done) return;
    next = pages.next();
    await writeSerializedProjections(client, index, page.value);
    await onCopied(page.value.length);
  }
}

/**
 * Counts must agree (served rows = served documents) and a sample of documents must equal the
 * projection of the stored state. Ingestion keeps running, so the counts may differ by at most the rows
 * written since the last catch-up began (those are caught up again after the swap); a larger gap is
 * caught up and re-checked a few times before it counts as a failure.
 */
async function verify(
  options: ReindexOptions,
  index: string,
  summary: ReindexSummary,
  catchUp: () => Promise<Date>,
  progress: ReportProgress,
): Promise<void> {
  const { client, db } = options;
  let lastCatchUpFrom = await catchUp();
  for (let attempt = 1; ; attempt++) {
    await client.indices.refresh({ index });
    summary.servedCount = await countServedPlaces(db);
    const counted = await client.count({ index, query: { term: { served: true } } });
    summary.indexedCount = counted.count;
    const changedSince = await countPlacesUpdatedSince(db, lastCatchUpFrom);
    await progress({
      phase: 'verify',
      detail: `served ${summary.servedCount}, indexed ${summary.indexedCount}, changed meanwhile ${changedSince}`,
    });
    if (Math.abs(summary.indexedCount - summary.servedCount) <= changedSince) break;
    if (attempt >= 5) {
      throw new ReindexVerificationError(
        `count mismatch: ${summary.servedCount} served places, ${summary.indexedCount} documents in ${index}`,
      );
    }
    lastCatchUpFrom = await catchUp();
  }
  await verifySample(options, index);
}

async function verifySample(options: ReindexOptions, index: string): Promise<void> {
  const sample = await options.client.search<Record<string, unknown>>({
    index,
    size: options.sampleSize ?? 50,
    query: { function_score: { query: { term: { served: true } }, functions: [{ random_score: {} }] } },
    version: true,
  });
  const ids = sample.hits.hits.map((hit) => hit._id ?? '');
  // Refolded from the event store with the code running now: a document stored by an older fold or
  // allowlist fails here, and so does anything that drifted from the events.
  const streams = await readStreams(options.db, ids);
  for (const hit of sample.hits.hits) {
    const placeId = hit._id ?? '';
    const place = projectPlace(placeId, streams.get(placeId) ?? [], { siteOrigin: options.siteOrigin });
    // A place that moved on since it was indexed is the worker's to project; only equal versions must match.
    if (place.stateVersion !== hit._version) continue;
    if (!isDeepStrictEqual(place.document, hit._source)) {
      throw new ReindexVerificationError(
        `document ${placeId} in ${index} differs from the projection of its event stream ` +
          '(did the fold or the allowlist change? run with --replay)',
      );
    }
  }
}

/**
 * The replay's load: refolds every stream with the code running now and writes each state to the places
 * table and the new index in the same pass (each document is written once; the catch-up only sees what
 * workers wrote meanwhile, see `replacePlaceStates`). The next page is read and folded while the current
 * one is written, and the table and the index are written at the same time. Places set aside as
 * projection failures at the refolded version are stored but not sent, as the load leaves them out.
 */
async function replayInto(
  options: ReindexOptions,
  index: string,
  onPage: (replayed: number, written: number) => Promise<void>,
): Promise<void> {
  const pages = refoldedPages(options);
  let next = pages.next();
  for (;;) {
    const page = await next;
    if (page.done) return;
    next = pages.next();
    // If this page fails, the read already under way must not become an unhandled rejection.
    next.catch(() => undefined);
    const { states, setAside } = page.value;
    const documents = states
      .filter((state) => (setAside.get(state.placeId) ?? 0) < state.stateVersion)
      .map((state) => ({
        placeId: state.placeId,
        version: state.stateVersion,
        documentJson: state.documentJson,
      }));
    await Promise.all([
      replacePlaceStates(options.db, states),
      writeSerializedProjections(options.client, index, documents),
    ]);
    await onPage(states.length, documents.length);
  }
}

async function* refoldedPages(
  options: ReindexOptions,
): AsyncGenerator<{ states: SerializedPlaceState[]; setAside: Map<string, number> }> {
  for await (const placeIds of allPlaceIds(options.db, REPLAY_PAGE)) {
    const [streams, setAside] = await Promise.all([
      readStreams(options.db, placeIds),
      setAsideVersions(options.db, placeIds),
    ]);
    const states = [...streams].map(([placeId, events]): SerializedPlaceState => {
      const place = projectPlace(placeId, events, { siteOrigin: options.siteOrigin });
      return { ...place, documentJson: JSON.stringify(place.document) };
    });
    yield { states, setAside };
  }
}

/**
 * Indices named `<alias>__*` that the alias does not point at and no running reindex is building:
 * leftovers of interrupted runs.
 */
export async function leftoverIndices(client: SearchClient, alias: string): Promise<string[]> {
  return deletableLeftovers(
    await concreteIndices(client, alias),
    await indicesBehindAlias(client, alias),
    await readReindexLease(client, alias),
    new Date(),
  );
}

async function concreteIndices(client: SearchClient, alias: string): Promise<string[]> {
  const response = await client.cat.indices({ index: `${alias}__*`, format: 'json', h: 'index' });
  return response.map((row) => row.index ?? '').filter((index) => index !== '');
}
