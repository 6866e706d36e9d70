// `npm run ingest -- FILE|- [--wait]`: validate NDJSON events and enqueue them for the worker.
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { basename } from 'node:path';
import { QueueEvents } from 'bullmq';
import { SingleBar, Presets } from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfigOrExit } from '@directory/config';
import { produceFromNdjson, type ProduceSummary } from './producer.js';
import { createIngestQueue, INGEST_QUEUE_NAME, type IngestJobResult } from './queue.js';
import { waitForJobs } from './wait-for-jobs.js';

const MAX_REJECTIONS_SHOWN = 50;

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('must be a positive integer');
  return parsed;
}

const program = new Command()
  .name('ingest')
  .description('Validate NDJSON place events and enqueue them on the ingest queue.')
  .argument('<file>', 'NDJSON file, or - for standard input')
  .option('--wait', 'return once every enqueued event is stored and projected')
  .option('--batch-size <n>', 'events per queue job', positiveInteger)
  .option('--timeout <seconds>', 'with --wait: give up after this long', positiveInteger, 900)
  .showHelpAfterError();
program.parse();
const file = program.args[0] ?? '-';
const options = program.opts<{ wait?: boolean; batchSize?: number; timeout: number }>();

const config = loadConfigOrExit();
const log = (line: string) => process.stderr.write(`${line}\n`);

if (file !== '-') {
  try {
    await access(file);
  } catch {
    log(`ingest: cannot read ${file}`);
    process.exit(2);
  }
}

const connection = { url: config.REDIS_URL };
const queue = createIngestQueue({ connection, prefix: config.REDIS_PREFIX });
// Subscribe before enqueueing, so no completion can be missed.
const queueEvents = options.wait
  ? new QueueEvents(INGEST_QUEUE_NAME, { connection, prefix: config.REDIS_PREFIX })
  : undefined;
await queueEvents?.waitUntilReady();

const interactive = process.stderr.isTTY;
const bar = interactive
  ? new SingleBar(
      { format: 'enqueue {bar} {value} events | {rate} ev/s', hideCursor: true },
      Presets.shades_classic,
    )
  : undefined;
const started = Date.now();
let lastLine = 0;
let shownRejections = 0;
bar?.start(0, 0, { rate: 0 });

const summary = await produceFromNdjson({
  queue,
  input: file === '-' ? process.stdin : createReadStream(file),
  sourceName: file === '-' ? 'stdin' : basename(file),
  batchSize: options.batchSize ?? config.INGEST_BATCH_SIZE,
  onRejection: ({ line, reason }) => {
    shownRejections += 1;
    if (shownRejections <= MAX_REJECTIONS_SHOWN) log(`line ${line}: rejected (${reason})`);
  },
  onProgress: (progress: ProduceSummary) => {
    const rate = Math.round(progress.enqueued / Math.max((Date.now() - started) / 1000, 0.001));
    if (bar) {
      bar.setTotal(progress.enqueued);
      bar.update(progress.enqueued, { rate });
    } else if (Date.now() - lastLine > 2_000) {
      lastLine = Date.now();
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
if (queueEvents) {
  const outcome = await waitForJobs(queue, queueEvents, summary.jobIds, {
    timeoutMs: options.timeout * 1000,
    onProgress: (done, total) => {
      if (!interactive || done === total) log(`processed ${done}/${total} jobs`);
    },
  });
  const totals = outcome.results.reduce<IngestJobResult>(
    (sum, result) => ({
      received: sum.received + result.received,
      stored: sum.stored + result.stored,
      duplicates: sum.duplicates + result.duplicates,
      deadLettered: sum.deadLettered + result.deadLettered,
      projected: sum.projected + result.projected,
      projectionFailures: sum.projectionFailures + result.projectionFailures,
    }),
    { received: 0, stored: 0, duplicates: 0, deadLettered: 0, projected: 0, projectionFailures: 0 },
  );
  const seconds = (Date.now() - started) / 1000;
  log(
    `done in ${seconds.toFixed(1)} s: ${totals.stored} stored, ${totals.duplicates} duplicates, ` +
      `${totals.deadLettered} dead-lettered, ${totals.projected} place projections` +
      (totals.projectionFailures
        ? `, ${totals.projectionFailures} refused by the index (npm run dead-letters -- projections)`
        : '') +
      (outcome.failed.length ? `, ${outcome.failed.length} jobs FAILED` : '') +
      (outcome.timedOut ? `, timed out waiting for ${outcome.pending} jobs` : ''),
  );
  if (outcome.failed.length > 0 || outcome.timedOut) exitCode = 1;
  await queueEvents.close();
}
await queue.close();
process.exit(exitCode);
