// `npm run jobs -- failed [--limit N] [--json] | retry ID…|--all`: see ingest batches BullMQ gave up on,
// retry them. Exit codes: docs/operations.md, "Exit codes".
import { Command } from 'commander';
import { createQueueConnection, loadConfigOrExit } from '@directory/config';
import { createIngestQueue } from '@directory/ingest';
import { positiveInteger } from './cli-arguments.js';
import { listFailedJobs, retryFailedJobs } from './failed-jobs.service.js';
import { column, failedJobLine, failedJobRecord, jsonDocument } from './operator-text.js';

/** `directory jobs …`: `argv` is what follows the command's name. */
export async function runJobsCommand(argv: string[]): Promise<void> {
  const config = loadConfigOrExit();
  const queueConnection = createQueueConnection(config);
  const queue = createIngestQueue(queueConnection.queue);
  const program = new Command()
    .name('jobs')
    .description(
      'Inspect and retry failed ingest jobs. Infrastructure errors never fail a job; a job fails when its ' +
        'worker died on it more than WORKER_MAX_STALLED_COUNT times, or under an older retry policy.',
    )
    // --help exits 0 here; a usage error is thrown, for `directory` to exit 2.
    .exitOverride((error) => {
      if (error.exitCode !== 0) throw error;
    });

  program
    .command('failed')
    .description('failed ingest jobs, most recent first')
    .option('--limit <n>', 'at most this many', positiveInteger, 100)
    .option('--json', 'print one JSON document on stdout instead of the lines')
    .action(async (options: { limit: number; json?: boolean }) => {
      const jobs = await listFailedJobs(queue, options);
      const total = await queue.getFailedCount();
      if (options.json) {
        process.stdout.write(jsonDocument({ total, jobs: jobs.map(failedJobRecord) }));
        return;
      }
      for (const job of jobs) console.log(failedJobLine(job));
      process.stderr.write(total === 0 ? 'no failed jobs\n' : `${total} failed jobs\n`);
    });

  program
    .command('retry')
    .argument('[ids...]', 'job ids')
    .option('--all', 'retry every failed job')
    .description('move failed jobs back to the queue with a fresh retry budget; idempotent')
    .action(async (ids: string[], options: { all?: boolean }) => {
      if (!options.all && ids.length === 0) program.error('error: give job ids or --all');
      const result = await retryFailedJobs(queue, options.all ? 'all' : ids);
      for (const id of result.notFailed)
        process.stderr.write(`job ${column(id)}: not failed, left as it is\n`);
      process.stderr.write(`retried ${result.retried.length} jobs\n`);
      if (result.notFailed.length > 0) process.exitCode = 1;
    });

  // A failure (Redis not answering) is thrown, for `directory` to exit 3.
  try {
    await program.parseAsync(argv, { from: 'user' });
  } finally {
    await queue.close();
    await queueConnection.close();
  }
}
