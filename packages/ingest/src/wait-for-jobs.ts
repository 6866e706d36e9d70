import type { Queue, QueueEvents } from 'bullmq';
import { fail, ok, type Result } from '@directory/domain';
import { addBatches, BATCHES_PER_ADD, type EnqueuedBatch } from './producer.js';
import type { IngestJobData, IngestJobResult } from './queue.js';

export type WaitOutcome = {
  /** Jobs completed. */
  completed: number;
  /** Place documents the index refused, over every completed job (counts, not a list: a backfill has many jobs). */
  projectionFailures: number;
  failed: Array<{ jobId: string; reason: string }>;
  timedOut: boolean;
  pending: number;
  /** Batches Redis lost (restarted, evicted) and that were enqueued again from `batches`. */
  requeued: number;
};

export type WaitOptions = {
  timeoutMs: number;
  onProgress?: (done: number, total: number) => void;
  /**
   * The data of every job waited for. With it, a job Redis no longer knows is enqueued again under the
   * same id (appends are idempotent, so a batch done twice stores nothing twice); without it, such a job
   * counts as failed. Entries are dropped as their jobs finish.
   */
  batches?: KeptBatches;
  onRequeue?: (jobIds: ReadonlyArray<string>) => void;
  /** Called when Redis cannot be asked (connection lost); the wait goes on until the timeout. */
  onRedisTrouble?: (error: Error) => void;
  /** How often unfinished jobs are looked up, besides listening for their events. */
  pollIntervalMs?: number;
};

/** Where waited-for batches are kept (a Map, or a `BatchSpool` on disk). */
export type KeptBatches = {
  has: (jobId: string) => boolean;
  get: (jobId: string) => IngestJobData | undefined | Promise<IngestJobData | undefined>;
  delete: (jobId: string) => unknown;
};

/** How a job ended for good: its result, or why it failed. */
type Settlement = Result<IngestJobResult>;
type JobLookup = Settlement | 'unfinished' | 'unknown';

/**
 * Waits until every job has completed or failed for good. Completion is heard from QueueEvents, and
 * every unfinished job is also looked up on an interval: that catches jobs that finished before we
 * listened, events missed while the connection was down, and jobs Redis lost (a restart without
 * persistence), which are enqueued again from `batches`. Only the state and the result are read, never
 * the job data: a batch's data is a megabyte of events.
 */
export async function waitForJobs(
  queue: Queue<IngestJobData, IngestJobResult>,
  queueEvents: QueueEvents,
  jobIds: ReadonlyArray<string>,
  options: WaitOptions,
): Promise<WaitOutcome> {
  const waiter = startWaitingForJobs(queue, queueEvents, options);
  waiter.add(jobIds);
  return waiter.wait();
}

/** Jobs waited for from the moment they are enqueued (`startWaitingForJobs`). */
export type JobWaiter = {
  /** Jobs just enqueued, each once: a completion heard from now on (or just before) settles them. */
  add: (jobIds: ReadonlyArray<string>) => void;
  /** Every job is added: waits until each has completed or failed for good, or the timeout. */
  wait: () => Promise<WaitOutcome>;
};

/**
 * Listens for completions at once, for jobs added as they are enqueued: a long input's early jobs finish
 * while the rest is still being read, and Redis keeps a completed job only so long (the last 10,000, for
 * an hour), so a job first looked up at the end could no longer be told from one Redis lost, and would be
 * enqueued again. Settled jobs leave `batches` as they finish, so a spool holds only unfinished ones.
 */
export function startWaitingForJobs(
  queue: Queue<IngestJobData, IngestJobResult>,
  queueEvents: QueueEvents,
  options: WaitOptions,
): JobWaiter {
  const outcome: WaitOutcome = {
    completed: 0,
    projectionFailures: 0,
    failed: [],
    timedOut: false,
    pending: 0,
    requeued: 0,
  };
  const jobs = trackSettlements(outcome, options);
  const stopListening = listenForSettlements(queueEvents, jobs.settle);
  const wait = async (): Promise<WaitOutcome> => {
    const poller = createPoller(
      () => lookUpUnfinishedJobs(queue, jobs, outcome, options),
      () => jobs.waiting.size > 0,
      options,
    );
    let timer: NodeJS.Timeout | undefined;
    try {
      await queueEvents.waitUntilReady();
      jobs.close();
      // Listening now: whatever finishes from here on is heard. The first look-up catches up on the rest.
      // Never rejects (errors are reported); not awaited at the end, so a look-up stuck on a dead
      // connection cannot hold the outcome past the timeout.
      void poller.run();
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          outcome.timedOut = true;
          resolve();
        }, options.timeoutMs);
      });
      if (jobs.waiting.size > 0) await Promise.race([jobs.allSettled, timedOut]);
      return outcome;
    } finally {
      poller.stop();
      clearTimeout(timer);
      stopListening();
    }
  };
  return { add: jobs.add, wait };
}

/** The jobs still waited for, and how one of them is settled (at most once) into the outcome. */
type SettlementTracker = {
  waiting: Set<string>;
  add: (jobIds: ReadonlyArray<string>) => void;
  settle: (jobId: string, settlement: Settlement) => void;
  /** No more jobs come: `allSettled` may resolve. */
  close: () => void;
  /** Resolved once closed and the last job is settled. */
  allSettled: Promise<void>;
};

const EARLY_SETTLEMENTS_KEPT = 1_000;

function trackSettlements(outcome: WaitOutcome, options: WaitOptions): SettlementTracker {
  const waiting = new Set<string>();
  let added = 0;
  let closed = false;
  let resolveAll: () => void = () => {};
  const allSettled = new Promise<void>((resolve) => {
    resolveAll = resolve;
  });
  // Settlements heard for jobs not added yet: a job can finish between Redis accepting it and its id
  // being added. The newest few only (the queue is shared with other producers).
  const early = new Map<string, Settlement>();
  const add = (jobIds: ReadonlyArray<string>) => {
    for (const jobId of jobIds) {
      if (waiting.has(jobId)) continue;
      waiting.add(jobId);
      added += 1;
      outcome.pending += 1;
      const heard = early.get(jobId);
      if (heard !== undefined) {
        early.delete(jobId);
        settle(jobId, heard);
      }
    }
  };
  const settle = (jobId: string, settlement: Settlement) => {
    if (!waiting.has(jobId)) {
      early.set(jobId, settlement);
      if (early.size > EARLY_SETTLEMENTS_KEPT) early.delete(early.keys().next().value as string);
      return;
    }
    waiting.delete(jobId);
    options.batches?.delete(jobId);
    outcome.pending -= 1;
    if (settlement.ok) {
      outcome.completed += 1;
      outcome.projectionFailures += settlement.value.projectionFailures;
    } else outcome.failed.push({ jobId, reason: settlement.error });
    // Of the jobs added so far: until `close`, more may come.
    options.onProgress?.(added - waiting.size, added);
    if (closed && waiting.size === 0) resolveAll();
  };
  const close = () => {
    closed = true;
    if (waiting.size === 0) resolveAll();
  };
  return { waiting, add, settle, close, allSettled };
}

/** Settles jobs as QueueEvents reports them; returns what stops listening. */
function listenForSettlements(queueEvents: QueueEvents, settle: SettlementTracker['settle']): () => void {
  // QueueEvents parses the return value; the 'failed' event only fires once retries are exhausted.
  const onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) =>
    settle(jobId, ok(returnvalue as IngestJobResult));
  const onFailed = ({ jobId, failedReason }: { jobId: string; failedReason: string }) =>
    settle(jobId, fail(failedReason));
  queueEvents.on('completed', onCompleted);
  queueEvents.on('failed', onFailed);
  return () => {
    queueEvents.off('completed', onCompleted);
    queueEvents.off('failed', onFailed);
  };
}

/**
 * Looks `lookUp` up every `pollIntervalMs` while `hasUnfinished`, until stopped; a look-up that fails
 * (Redis cannot be asked) is reported and the polling goes on.
 */
function createPoller(
  lookUp: () => Promise<void>,
  hasUnfinished: () => boolean,
  options: Pick<WaitOptions, 'pollIntervalMs' | 'onRedisTrouble'>,
): { run: () => Promise<void>; stop: () => void } {
  let polling = true;
  let stopPolling: () => void = () => {};
  const pollingStopped = new Promise<void>((resolve) => {
    stopPolling = resolve;
  });
  const run = async () => {
    while (polling && hasUnfinished()) {
      try {
        await lookUp();
      } catch (error) {
        options.onRedisTrouble?.(error instanceof Error ? error : new Error(String(error)));
      }
      let pause: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise((resolve) => (pause = setTimeout(resolve, options.pollIntervalMs ?? 2_000))),
        pollingStopped,
      ]);
      clearTimeout(pause);
    }
  };
  const stop = () => {
    polling = false;
    stopPolling();
  };
  return { run, stop };
}

const LOOKUPS_AT_ONCE = 100;

/** Settles every waited-for job that has finished; jobs Redis lost are enqueued again from their batches. */
async function lookUpUnfinishedJobs(
  queue: Queue<IngestJobData, IngestJobResult>,
  jobs: SettlementTracker,
  outcome: WaitOutcome,
  options: WaitOptions,
): Promise<void> {
  const lost: string[] = [];
  // A few at a time: a backfill waits for thousands of jobs, and a promise and a reply each at once
  // would make the waiting producer's memory grow with the input.
  const waiting = [...jobs.waiting];
  for (let start = 0; start < waiting.length; start += LOOKUPS_AT_ONCE) {
    await Promise.all(
      waiting.slice(start, start + LOOKUPS_AT_ONCE).map(async (jobId) => {
        const lookup = await lookUpJob(queue, jobId);
        if (lookup === 'unfinished') return;
        if (lookup !== 'unknown') return jobs.settle(jobId, lookup);
        if (options.batches?.has(jobId)) lost.push(jobId);
        else jobs.settle(jobId, fail('job vanished from the queue (Redis lost it?)'));
      }),
    );
  }
  if (lost.length === 0 || options.batches === undefined) return;
  await enqueueLostJobsAgain(queue, lost, options.batches, outcome);
  options.onRequeue?.(lost);
}

/**
 * Reads back and enqueues a few batches at a time: a Redis restart may have lost thousands of them,
 * and holding them all at once would undo what the spool is for (flat memory). Each group enqueued
 * counts in `outcome.requeued` at once.
 */
async function enqueueLostJobsAgain(
  queue: Queue<IngestJobData, IngestJobResult>,
  lost: ReadonlyArray<string>,
  batches: KeptBatches,
  outcome: WaitOutcome,
): Promise<void> {
  for (let start = 0; start < lost.length; start += BATCHES_PER_ADD) {
    const group: EnqueuedBatch[] = [];
    for (const jobId of lost.slice(start, start + BATCHES_PER_ADD)) {
      const data = await batches.get(jobId);
      if (data) group.push({ jobId, data });
    }
    await addBatches({ queue, enqueueRetryMs: 0 }, group);
    outcome.requeued += group.length;
  }
}

/** How a job ended, 'unfinished' while it is waiting, active or delayed, 'unknown' if Redis lost it. */
async function lookUpJob(queue: Queue<IngestJobData, IngestJobResult>, jobId: string): Promise<JobLookup> {
  const state = await queue.getJobState(jobId);
  if (state === 'unknown') return 'unknown';
  if (state !== 'completed' && state !== 'failed') return 'unfinished';
  // The job hash's result fields, without its data (Queue has no getter that leaves the data out).
  const client = await queue.client;
  const [returnvalue, failedReason] = await client.hmget(queue.toKey(jobId), 'returnvalue', 'failedReason');
  if (state === 'failed') return fail(failedReason ?? 'failed');
  return ok(JSON.parse(returnvalue ?? 'null') as IngestJobResult);
}
