import type { Database } from '@directory/database';
import type { IndexShape, SearchClient } from '@directory/search-index';
import type { HealthSetting, ReindexLease } from './reindex-guard.js';

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
  /**
   * A replay waits this long after writing each page (default 0): room for live traffic in PostgreSQL
   * and Elasticsearch, measured by `npm run bench:reindex -- --replay --replay-pause-ms N`.
   */
  replayPauseMs?: number;
  /** Pages a replay works on at the same time (default `REPLAY_LANES`, 2; 1 is one page at a time). */
  replayLanes?: number;
  /** Places per replay page (default `REPLAY_PAGE`); tests cross pages with small ones. */
  replayPageSize?: number;
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
  | { phase: 'lock' | 'merge' | 'health' | 'verify' | 'swap' | 'cleanup'; detail: string };

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

export type ReportProgress = (event: ReindexProgress) => Promise<void>;

export function progressReporter(options: ReindexOptions): ReportProgress {
  return async (event) => {
    await options.onProgress?.(event);
  };
}

export function emptySummary(
  options: ReindexOptions,
  newIndex: string,
  previousIndices: string[],
): ReindexSummary {
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
