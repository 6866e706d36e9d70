// `npm run ingest -- FILE|- [--wait]`: validate NDJSON events and enqueue them for the worker.
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { basename } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { QueueEvents } from 'bullmq';
import { SingleBar, Presets } from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import { createQueueConnection, databaseTimeouts, loadConfigOrExit } from '@directory/config';
import { createDatabase, type Database } from '@directory/database';
import { createLinePacer, escapeControlCharacters } from '@directory/domain';
import { startTracing, stopTracing } from '@directory/observability';
import { countStoredSince, lastPosition, type StoredSince } from '@directory/event-store';
import { createSearchClient } from '@directory/search-index';
import { produceFromNdjson, type ProduceSummary } from './producer.js';
import { BatchSpool } from './batch-spool.js';
import { EventIdLog } from './event-id-log.js';
import { createIngestQueue, INGEST_QUEUE_NAME } from './queue.js';
import { describeRun, summarizeRun } from './run-summary.js';
import { startWaitingForJobs } from './wait-for-jobs.js';

const MAX_REJECTIONS_SHOWN = 50;
/** In a log, the first jobs' completions each get a line; after them, one line every few seconds. */
const JOBS_SHOWN_ONE_BY_ONE = 10;
const HEAP_GROWING_PERCENT = 50;

/** Where the store holds the logged event ids, looked up one file of distinct ids at a time. */
async function countStoredOf(db: Database, eventIds: EventIdLog, position: number): Promise<StoredSince> {
  const counts: StoredSince = { storedAfter: 0, storedBefore: 0, missing: 0 };
  for await (const ids of eventIds.distinctByPartition()) {
    const part = await countStoredSince(db, ids, position);
    counts.storedAfter += part.storedAfter;
    counts.storedBefore += part.storedBefore;
    counts.missing += part.missing;
  }
  return counts;
}

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('must be a positive integer');
  return parsed;
}

/** `directory ingest …`: `argv` is what follows the command's name. */
export async function runIngestCommand(argv: string[]): Promise<void> {
  // What the producer holds is one group of batches (about 2 MB of events) however long the input, but V8
  // sizes the heap for speed: after each full collection it let the heap grow to several times what was
  // live. Half the live size again keeps the resident memory bounded by the batches too.
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

  const program = new Command()
    .name('ingest')
    .description('Validate NDJSON place events and enqueue them on the ingest queue.')
    .argument('<file>', 'NDJSON file, or - for standard input')
    .option('--wait', 'return once every event is stored and searchable, with an exact summary')
    .option('--batch-size <n>', 'events per queue job', positiveInteger)
    .option('--timeout <seconds>', 'with --wait: give up after this long', positiveInteger, 900)
    .showHelpAfterError()
    // --help exits 0 here; a usage error is thrown, for `directory` to exit 2 (docs/operations.md, "Exit codes").
    .exitOverride((error) => {
      if (error.exitCode !== 0) throw error;
    });
  program.parse(argv, { from: 'user' });
  const file = program.args[0] ?? '-';
  const options = program.opts<{ wait?: boolean; batchSize?: number; timeout: number }>();

  const config = loadConfigOrExit();
  await startTracing('ingest');
  const log = (line: string) => process.stderr.write(`${line}\n`);

  if (file !== '-') {
    try {
      await access(file);
    } catch {
      log(`ingest: cannot read ${file}`);
      process.exit(2);
    }
  }

  const queueConnection = createQueueConnection(config);
  const queue = createIngestQueue(queueConnection.queue);
  // Subscribe before enqueueing, so no completion can be missed.
  const queueEvents = options.wait ? new QueueEvents(INGEST_QUEUE_NAME, queueConnection.queue) : undefined;
  await queueEvents?.waitUntilReady();
  // With --wait: the store's position before anything is enqueued tells this run's events from older ones,
  // and every batch is kept (on disk) until it is done, to be enqueued again if Redis loses it.
  const db = options.wait
    ? createDatabase(config.DATABASE_URL, { timeouts: databaseTimeouts(config, 'job') })
    : undefined;
  const startPosition = db ? await lastPosition(db) : 0;
  const spool = options.wait ? await BatchSpool.open() : undefined;
  // The input's event ids, on disk, to look up in the store at the end.
  const eventIds = options.wait ? await EventIdLog.open() : undefined;
  if (spool) {
    // The spool is a copy of the input: never leave it behind, however this process ends (an error, Ctrl-C).
    process.once('exit', () => {
      spool.discard();
      eventIds?.discard();
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  }
  let redisTroubleReported = false;
  const reportRedisTrouble = (error: Error) => {
    if (redisTroubleReported) return;
    redisTroubleReported = true;
    log(`Redis unavailable (${error.message}); retrying`);
  };

  const interactive = process.stderr.isTTY;
  let inputRead = false;
  const jobLineDue = createLinePacer();
  // Jobs are waited for from the moment they are enqueued: a long input's first jobs finish (and leave
  // the spool) while the rest is still being read.
  const waiter = queueEvents
    ? startWaitingForJobs(queue, queueEvents, {
        timeoutMs: options.timeout * 1000,
        batches: spool,
        // Of the jobs enqueued so far. In a log: the first jobs one by one (the run is seen to move), then a
        // line every few seconds, not one per job (20,000 of them in a backfill); on a terminal only the
        // last line, once the input is read.
        onProgress: (done, total) => {
          const last = done === total && inputRead;
          if (interactive ? last : done <= JOBS_SHOWN_ONE_BY_ONE || jobLineDue(last))
            log(`processed ${done}/${total} jobs`);
        },
        onRedisTrouble: reportRedisTrouble,
        onRequeue: (jobIds) => {
          redisTroubleReported = false;
          log(`${jobIds.length} batches lost by Redis (restarted?); enqueued again`);
        },
      })
    : undefined;
  const bar = interactive
    ? new SingleBar(
        { format: 'enqueue {bar} {value} events | {rate} ev/s', hideCursor: true },
        Presets.shades_classic,
      )
    : undefined;
  const started = Date.now();
  const enqueueLineDue = createLinePacer();
  let shownRejections = 0;
  bar?.start(0, 0, { rate: 0 });

  const summary = await produceFromNdjson({
    queue,
    input: file === '-' ? process.stdin : createReadStream(file),
    sourceName: file === '-' ? 'stdin' : basename(file),
    batchSize: options.batchSize ?? config.INGEST_BATCH_SIZE,
    maxBatchBytes: config.INGEST_BATCH_MAX_BYTES,
    maxQueuedBatches: config.INGEST_MAX_QUEUED_BATCHES,
    onQueueFull: (queued) => {
      if (!bar && enqueueLineDue()) {
        log(`the queue holds ${queued} batches (INGEST_MAX_QUEUED_BATCHES): waiting for the workers`);
      }
    },
    eventIds,
    onRejection: ({ line, reason }) => {
      shownRejections += 1;
      // The reason may quote the producer's text (a key, a file name): shown with its controls escaped.
      if (shownRejections <= MAX_REJECTIONS_SHOWN)
        log(`line ${line}: rejected (${escapeControlCharacters(reason)})`);
    },
    onEnqueued: async (batches) => {
      if (spool) await Promise.all(batches.map(({ jobId, data }) => spool.put(jobId, data)));
      waiter?.add(batches.map(({ jobId }) => jobId));
    },
    onEnqueueRetry: reportRedisTrouble,
    onProgress: (progress: ProduceSummary) => {
      const rate = Math.round(progress.enqueued / Math.max((Date.now() - started) / 1000, 0.001));
      if (bar) {
        bar.setTotal(progress.enqueued);
        bar.update(progress.enqueued, { rate });
      } else if (enqueueLineDue()) {
        log(`enqueued ${progress.enqueued} events (${rate} ev/s)`);
      }
    },
  });
  bar?.stop();
  if (shownRejections > MAX_REJECTIONS_SHOWN)
    log(`… and ${shownRejections - MAX_REJECTIONS_SHOWN} more rejected lines`);
  log(
    `enqueued ${summary.enqueued} events in ${summary.jobIds.length} jobs: ${summary.enqueued - summary.rejected} valid, ` +
      `${summary.rejected} rejected (sent to dead letters), ${summary.duplicatesInInput} repeated in this input`,
  );

  let exitCode = 0;
  if (queueEvents && waiter && db && eventIds) {
    // Every job of the input was added as it was enqueued (`onEnqueued`).
    inputRead = true;
    const outcome = await waiter.wait();
    // Projected is not yet searchable: a refresh of the alias makes every document written so far
    // visible to search now, instead of at the next periodic refresh (about a second later).
    const search = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs: 30_000, maxRetries: 3 });
    const refreshStarted = Date.now();
    let searchable: string;
    try {
      await search.indices.refresh({ index: config.ELASTICSEARCH_INDEX });
      searchable = `searchable (refresh ${Date.now() - refreshStarted} ms)`;
    } catch (error) {
      searchable = `NOT confirmed searchable (refresh failed: ${error instanceof Error ? error.message : String(error)})`;
      exitCode = 1;
    }
    await search.close();
    const run = summarizeRun(summary, await countStoredOf(db, eventIds, startPosition));
    await db.destroy();
    const refused = outcome.projectionFailures;
    const seconds = (Date.now() - started) / 1000;
    log(
      `done in ${seconds.toFixed(1)} s: ${describeRun(run)}; ${searchable}` +
        (outcome.requeued ? `; ${outcome.requeued} batches re-enqueued after Redis lost them` : '') +
        (refused
          ? `; ${refused} place documents refused by the index (npm run dead-letters -- projections)`
          : ''),
    );
    if (outcome.failed.length > 0)
      log(
        `${outcome.failed.length} jobs FAILED (first: ${escapeControlCharacters(outcome.failed[0]?.reason ?? '')}); ` +
          'see `npm run jobs -- failed`, retry them there, or run this ingest again (nothing is stored twice)',
      );
    if (outcome.timedOut)
      log(
        `timed out waiting for ${outcome.pending} jobs; are workers running? ` +
          'Run this ingest again with --wait once they are (nothing is stored twice)',
      );
    if (run.notStored > 0 && outcome.failed.length === 0 && !outcome.timedOut)
      log('some events are not in the store although their batches finished; run this ingest again');
    if (outcome.failed.length > 0 || outcome.timedOut || run.notStored > 0) exitCode = 1;
    await queueEvents.close();
  }
  await spool?.close();
  await eventIds?.close();
  await queue.close();
  await queueConnection.close();
  await stopTracing();
  process.exit(exitCode);
}
