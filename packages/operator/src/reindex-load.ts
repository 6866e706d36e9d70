import { projectPlace } from '@directory/domain';
import {
  allPlaceIds,
  countProjections,
  databaseNow,
  readPageStreams,
  replacePlaceStates,
  setAsideVersions,
  streamProjections,
  type SerializedPlaceState,
  type StoredProjection,
} from '@directory/event-store';
import {
  createDoctorsIndex,
  indexShapeSettings,
  writeSerializedProjections,
  type IndexShape,
  type SearchClient,
} from '@directory/search-index';
import type { ReindexOptions, ReindexSummary, ReportProgress } from './reindex-options.js';

// The reindex's writes into the new index: the bulk load (a copy of the places table or a replay of the
// event store) and the catch-up of what workers wrote meanwhile.

const BULK_PAGE = 2_000;
/**
 * Places per replay page. Smaller than a copy's page: each place's events and refolded state are held
 * too, and at 2,000 the pages' statements spill to disk (temp files); the replay's PostgreSQL CPU and
 * peak RSS at each size are measured by `npm run bench:reindex` (docs/benchmarks.md).
 */
export const REPLAY_PAGE = 1_000;

/**
 * Opens the catch-up window before the load (or the replay) reads anything: a worker write to a place
 * the load has already passed is caught up; what the load itself wrote is not. The returned catch-up
 * projects every row written since the previous one began and returns this one's start (less the
 * margin).
 */
export async function openCatchUpWindow(
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
export async function createIndexForBulkLoad(
  client: SearchClient,
  index: string,
  shape: IndexShape,
): Promise<void> {
  await createDoctorsIndex(client, index, {
    ...indexShapeSettings(shape),
    refresh_interval: '-1',
    number_of_replicas: 0,
  });
}

/** Refolds every stream into the new index (a replay), or copies the places table into it. */
export async function loadNewIndex(
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
 * Pages a replay works on at the same time, each read, refolded and written in turn by a lane of its
 * own. While one lane refolds (this process' CPU), the other's page is read by PostgreSQL or written to
 * the table and the index, so the process, the database and Elasticsearch work at once; two pages are
 * held at a time, as a read-ahead of one page would. One, two and three measured in docs/operations.md
 * ("PostgreSQL settings for a large store"): a third lane was no faster and took the RSS near 300 MB.
 */
export const REPLAY_LANES = 2;

/**
 * The replay's load: refolds every stream with the code running now and writes each state to the places
 * table and the new index in the same pass (each document is written once; the catch-up only sees what
 * workers wrote meanwhile, see `replacePlaceStates`). Lanes (`REPLAY_LANES`) take pages of place ids in
 * turn; a page's table and index writes go out at the same time. Places set aside as projection
 * failures at the refolded version are stored but not sent, as the load leaves them out. A failed
 * lane stops the others before their next page, and the replay fails once all have stopped.
 */
async function replayInto(
  options: ReindexOptions,
  index: string,
  onPage: (replayed: number, written: number) => Promise<void>,
): Promise<void> {
  const placeIdPages = allPlaceIds(options.db, options.replayPageSize ?? REPLAY_PAGE);
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed) {
      const placeIds = await placeIdPages.next();
      if (placeIds.done) return;
      const { states, setAside } = await refold(options, placeIds.value);
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
      if (options.replayPauseMs) await new Promise((resolve) => setTimeout(resolve, options.replayPauseMs));
    }
  };
  const lanes = Array.from({ length: options.replayLanes ?? REPLAY_LANES }, () =>
    lane().catch((error: unknown) => {
      failed = true;
      throw error;
    }),
  );
  const failure = (await Promise.allSettled(lanes)).find(
    (result): result is PromiseRejectedResult => result.status === 'rejected',
  );
  if (failure) throw failure.reason;
}

async function refold(
  options: ReindexOptions,
  placeIds: string[],
): Promise<{ states: SerializedPlaceState[]; setAside: Map<string, number> }> {
  const [streams, setAside] = await Promise.all([
    readPageStreams(options.db, placeIds),
    setAsideVersions(options.db, placeIds),
  ]);
  const states = [...streams].map(([placeId, events]): SerializedPlaceState => {
    const place = projectPlace(placeId, events, { siteOrigin: options.siteOrigin });
    return { ...place, documentJson: JSON.stringify(place.document) };
  });
  return { states, setAside };
}
