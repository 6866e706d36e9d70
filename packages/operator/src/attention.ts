import type { DependencyStatus } from '@directory/observability';
import type { QueueCounts, ServedCounts } from '@directory/ingest';
import { column } from './operator-text.js';

/** Everything `npm run status` looked at; a part is null when the dependency it needs did not answer. */
export type StatusSnapshot = {
  dependencies: DependencyStatus[];
  queue: QueueCounts | null;
  projection: {
    lagPlaces: number;
    /** Places the index refused at their current version, waiting for an operator. */
    setAsidePlaces: number;
    oldestChangeAgeSeconds: number;
    stalenessSeconds: number | null;
  } | null;
  deadLettersPending: number | null;
  served: ServedCounts | null;
  /** `ageSeconds` is null when the store holds no event yet. */
  newestEvent: { ageSeconds: number | null } | null;
  /**
   * Why the index reflects events the store no longer has (`readStoreBehindIndex`: a failover that lost
   * commits), naming the repair; null when it does not; absent when unknown.
   */
  storeBehindIndex?: string | null;
  /**
   * The webhook deliveries table: the planner's row estimate (null before its first analyze), bytes on
   * disk, and seconds since a prune last finished (null: never). Null when PostgreSQL did not answer;
   * absent when not read.
   */
  webhookDeliveries?: {
    estimatedRows: number | null;
    bytes: number;
    lastPrunedAgeSeconds: number | null;
  } | null;
  /**
   * Each dataset's served documents and the share a crawl observed in the last 90 days
   * (dataset-coverage.ts). Null when Elasticsearch did not answer; absent when not read.
   */
  datasetCoverage?: ReadonlyArray<{ country: string; records: number; coverage: number }> | null;
};

export type AttentionThresholds = {
  /** Seconds without projector progress while work waits. */
  maxStalenessSeconds: number;
  /** Seconds the oldest change not yet in the index may wait. */
  maxLagAgeSeconds: number;
};

export const DEFAULT_THRESHOLDS: AttentionThresholds = { maxStalenessSeconds: 120, maxLagAgeSeconds: 300 };

/** What an operator must look at, one clear line each; empty when all is well. */
export function needsAttention(
  snapshot: StatusSnapshot,
  thresholds: AttentionThresholds = DEFAULT_THRESHOLDS,
): string[] {
  const lines: string[] = [];
  for (const dependency of snapshot.dependencies) {
    if (!dependency.ready)
      lines.push(`${dependency.name} is not ready: ${column(dependency.reason ?? 'no answer')}`);
  }
  if (snapshot.queue && snapshot.queue.failed > 0) {
    lines.push(
      `${snapshot.queue.failed} ingest job(s) failed for good: npm run jobs -- failed, then retry (or the queue dashboard)`,
    );
  }
  const projection = snapshot.projection;
  if (projection) {
    if (projection.stalenessSeconds === null) {
      lines.push('work is waiting but no worker has ever reported progress: is a worker running?');
    } else if (projection.stalenessSeconds > thresholds.maxStalenessSeconds) {
      lines.push(
        `projection stalled: no progress for ${Math.round(projection.stalenessSeconds)} s while work waits (limit ${thresholds.maxStalenessSeconds} s)`,
      );
    }
    if (projection.lagPlaces > 0 && projection.oldestChangeAgeSeconds > thresholds.maxLagAgeSeconds) {
      lines.push(
        `projection lag: ${projection.lagPlaces} place(s) behind, the oldest change ${Math.round(projection.oldestChangeAgeSeconds)} s old (limit ${thresholds.maxLagAgeSeconds} s)`,
      );
    }
    if (projection.setAsidePlaces > 0) {
      lines.push(
        `${projection.setAsidePlaces} place(s) refused by the index and set aside: npm run dead-letters -- projections`,
      );
    }
  }
  if (snapshot.deadLettersPending !== null && snapshot.deadLettersPending > 0) {
    lines.push(`${snapshot.deadLettersPending} dead letter(s) pending: npm run dead-letters -- list`);
  }
  if (snapshot.storeBehindIndex) lines.push(snapshot.storeBehindIndex);
  if (snapshot.served) {
    const gap = Math.abs(snapshot.served.postgresql - snapshot.served.index);
    // While places lag, the index may trail by at most that many; a place set aside is left out of the
    // store's count but may still have its last good document served in the index. More is a real gap.
    if (gap > (projection ? projection.lagPlaces + projection.setAsidePlaces : 0)) {
      lines.push(
        `index and store disagree: ${snapshot.served.postgresql} served in PostgreSQL, ${snapshot.served.index} in the index (npm run reindex)`,
      );
    }
  }
  return lines;
}

/** The one screen: every figure, then what needs attention (or that all is well). */
export function formatStatus(snapshot: StatusSnapshot, attention: ReadonlyArray<string>): string {
  const unknown = 'unknown';
  const lines = ['dependencies'];
  for (const dependency of snapshot.dependencies) {
    lines.push(
      `  ${dependency.name.padEnd(14)} ${dependency.ready ? 'ready' : `NOT READY (${column(dependency.reason ?? 'no answer')})`}`,
    );
  }
  const queue = snapshot.queue;
  lines.push(
    'queue ingest',
    queue
      ? `  waiting ${queue.waiting}  active ${queue.active}  delayed ${queue.delayed}  prioritized ${queue.prioritized}  paused ${queue.paused}  failed ${queue.failed}  completed ${queue.completed}`
      : `  ${unknown}`,
  );
  const projection = snapshot.projection;
  lines.push(
    'projection',
    projection
      ? `  lagging places ${projection.lagPlaces}  set aside ${projection.setAsidePlaces}  oldest change ${seconds(projection.oldestChangeAgeSeconds)}  staleness ${projection.stalenessSeconds === null ? 'no worker reported' : seconds(projection.stalenessSeconds)}`
      : `  ${unknown}`,
  );
  lines.push(
    `dead letters pending  ${snapshot.deadLettersPending ?? unknown}`,
    `served places         ${snapshot.served ? `PostgreSQL ${snapshot.served.postgresql}  index ${snapshot.served.index}` : unknown}`,
    `newest event          ${newestEvent(snapshot.newestEvent)}`,
    `webhook deliveries    ${webhookDeliveries(snapshot.webhookDeliveries)}`,
    `observed in 90 days   ${datasetCoverage(snapshot.datasetCoverage)}`,
    '',
  );
  if (attention.length === 0) lines.push('OK: nothing needs attention');
  else lines.push(...attention.map((line) => `ATTENTION: ${line}`));
  return `${lines.join('\n')}\n`;
}

function newestEvent(value: StatusSnapshot['newestEvent']): string {
  if (value === null) return 'unknown';
  return value.ageSeconds === null ? 'none stored' : `${seconds(value.ageSeconds)} ago`;
}

function webhookDeliveries(value: StatusSnapshot['webhookDeliveries']): string {
  if (value === undefined || value === null) return 'unknown';
  const rows = value.estimatedRows === null ? 'rows not estimated yet' : `about ${value.estimatedRows} rows`;
  const pruned =
    value.lastPrunedAgeSeconds === null
      ? 'never pruned'
      : `last pruned ${seconds(value.lastPrunedAgeSeconds)} ago`;
  return `${rows}  ${megabytes(value.bytes)} on disk  ${pruned}`;
}

function datasetCoverage(value: StatusSnapshot['datasetCoverage']): string {
  if (value === undefined || value === null) return 'unknown';
  if (value.length === 0) return 'no served records';
  return value
    .map((dataset) => `${dataset.country} ${(dataset.coverage * 100).toFixed(1)}% of ${dataset.records}`)
    .join('  ');
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

function seconds(value: number): string {
  return `${Math.round(value)} s`;
}

/**
 * `status --json`: the snapshot and what needs attention, as one document with a fixed set of fields
 * (docs/operations.md, "status --json"). Built field by field so a new snapshot field never reaches
 * scripts unannounced.
 */
export function statusDocument(snapshot: StatusSnapshot, attention: ReadonlyArray<string>) {
  const { queue, projection, served, newestEvent: newest } = snapshot;
  return {
    ok: attention.length === 0,
    attention: [...attention],
    dependencies: snapshot.dependencies.map((dependency) => ({
      name: dependency.name,
      ready: dependency.ready,
      reason: dependency.reason ?? null,
      durationMs: dependency.durationMs,
    })),
    queue: queue && {
      waiting: queue.waiting,
      active: queue.active,
      delayed: queue.delayed,
      prioritized: queue.prioritized,
      paused: queue.paused,
      failed: queue.failed,
      completed: queue.completed,
    },
    projection: projection && {
      lagPlaces: projection.lagPlaces,
      setAsidePlaces: projection.setAsidePlaces,
      oldestChangeAgeSeconds: projection.oldestChangeAgeSeconds,
      stalenessSeconds: projection.stalenessSeconds,
    },
    deadLettersPending: snapshot.deadLettersPending,
    served: served && { postgresql: served.postgresql, index: served.index },
    newestEvent: newest && { ageSeconds: newest.ageSeconds },
    storeBehindIndex: snapshot.storeBehindIndex ?? null,
    webhookDeliveries: snapshot.webhookDeliveries
      ? {
          estimatedRows: snapshot.webhookDeliveries.estimatedRows,
          bytes: snapshot.webhookDeliveries.bytes,
          lastPrunedAgeSeconds: snapshot.webhookDeliveries.lastPrunedAgeSeconds,
        }
      : null,
    datasetCoverage: snapshot.datasetCoverage
      ? snapshot.datasetCoverage.map((dataset) => ({
          country: dataset.country,
          records: dataset.records,
          coverage: dataset.coverage,
        }))
      : null,
  };
}
