import type { Database } from '@directory/database';
import {
  claimTask,
  deleteFinalDeliveries,
  finishTask,
  lastFinishedAt,
  readDeliveriesTableSize,
  type DeliveriesTableSize,
} from './retention.repository.js';

/**
 * Retention of webhook deliveries: a final delivery (delivered, failed or abandoned) older than the
 * retention is deleted; a pending one never is, however old. The prune runs in short statements of a
 * bounded number of rows, each its own transaction, skipping rows another transaction holds, so the
 * dispatcher and the delivery worker never wait for it; one worker prunes at a time (a claim).
 */

/** The task name of the prune's claim (maintenance_claims). */
export const PRUNE_TASK = 'webhook-delivery-prune';
/** Rows per delete statement: a statement's locks and WAL stay small. */
export const PRUNE_BATCH_SIZE = 1_000;

const DAY_MS = 86_400_000;

/** Deliveries made before this instant are old enough to go, once final. */
export function pruneCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * DAY_MS);
}

/**
 * Whether a prune run deletes another batch: not once a batch came back short (nothing older is left),
 * and not past half its claim, so a run always ends well before another worker may claim the task.
 */
export function continuePruning(run: {
  lastBatchRows: number;
  batchSize: number;
  elapsedMs: number;
  claimMs: number;
}): boolean {
  return run.lastBatchRows === run.batchSize && run.elapsedMs < run.claimMs / 2;
}

export type PruneOptions = {
  /** WEBHOOK_DELIVERY_RETENTION_DAYS. */
  retentionDays: number;
  /** How long the claim keeps other workers off the task (the prune interval). */
  claimMs: number;
  /** Who claims: a name unique to this process. */
  holder: string;
  now: () => Date;
  batchSize?: number;
  /** Called after each batch with the rows it deleted (the worker's counter). */
  onBatch?: (deletedRows: number) => void;
  /** Aborted (the worker stopping): the run ends after the statement in flight. */
  signal?: AbortSignal;
};

/** A run that claimed the task: what it deleted; `null` when another worker holds the claim. */
export type PruneRun = { deletedRows: number; batches: number } | null;

/** One prune run, if this process wins the claim. */
export async function pruneDeliveries(db: Database, options: PruneOptions): Promise<PruneRun> {
  const batchSize = options.batchSize ?? PRUNE_BATCH_SIZE;
  if (!(await claimTask(db, { task: PRUNE_TASK, holder: options.holder, claimMs: options.claimMs }))) {
    return null;
  }
  const startedAt = performance.now();
  const before = pruneCutoff(options.now(), options.retentionDays);
  let deletedRows = 0;
  let batches = 0;
  let lastBatchRows: number;
  do {
    lastBatchRows = await deleteFinalDeliveries(db, { before, limit: batchSize });
    deletedRows += lastBatchRows;
    batches += 1;
    options.onBatch?.(lastBatchRows);
  } while (
    options.signal?.aborted !== true &&
    continuePruning({
      lastBatchRows,
      batchSize,
      elapsedMs: performance.now() - startedAt,
      claimMs: options.claimMs,
    })
  );
  await finishTask(db, { task: PRUNE_TASK, holder: options.holder });
  return { deletedRows, batches };
}

/** What `npm run status` shows of the deliveries table: its size, and when a prune last finished. */
export type RetentionStatus = DeliveriesTableSize & { lastPrunedAt: Date | null };

/** Reads the catalog and the prune's claim only: cheap whatever the table holds. */
export async function readRetentionStatus(db: Database): Promise<RetentionStatus> {
  const [size, lastPrunedAt] = await Promise.all([
    readDeliveriesTableSize(db),
    lastFinishedAt(db, PRUNE_TASK),
  ]);
  return { ...size, lastPrunedAt };
}
