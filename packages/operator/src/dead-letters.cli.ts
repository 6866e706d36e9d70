// `npm run dead-letters -- list [--json] | show ID | redrive [ID…|--all] | projections [--json]
// | retry-projections [ID…|--all]`: see why events were rejected and re-drive them; see which places the
// index refused and project them again. Exit codes: docs/operations.md, "Exit codes".
import { Command, InvalidArgumentError } from 'commander';
import { databaseTimeouts, loadConfigOrExit } from '@directory/config';
import { createDatabase } from '@directory/database';
import { createSearchClient } from '@directory/search-index';
import {
  countProjectionFailures,
  getDeadLetters,
  listDeadLetters,
  listProjectionFailures,
} from '@directory/event-store';
import {
  column,
  deadLetterJson,
  deadLetterLine,
  deadLetterRecord,
  jsonDocument,
  projectionFailureLine,
  projectionFailureRecord,
} from './operator-text.js';
import { redriveDeadLetters, retryProjectionFailures } from './redrive.service.js';

function id(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('must be a dead letter id');
  return parsed;
}

/** `directory dead-letters …`: `argv` is what follows the command's name. */
export async function runDeadLettersCommand(argv: string[]): Promise<void> {
  const config = loadConfigOrExit();
  const db = createDatabase(config.DATABASE_URL, {
    maxConnections: 2,
    timeouts: databaseTimeouts(config, 'job'),
  });
  const program = new Command()
    .name('dead-letters')
    .description('Inspect and re-drive rejected events, and places whose index document was refused.')
    // --help exits 0 here; a usage error is thrown, for `directory` to exit 2.
    .exitOverride((error) => {
      if (error.exitCode !== 0) throw error;
    });
  const projectorDependencies = (client: ReturnType<typeof createSearchClient>) => ({
    db,
    search: { client, alias: config.ELASTICSEARCH_INDEX },
    siteOrigin: config.SITE_ORIGIN,
  });

  program
    .command('list')
    .description('pending dead letters (oldest first)')
    .option('--all', 'include re-driven ones')
    .option('--limit <n>', 'at most this many', (value) => id(value), 100)
    .option('--json', 'print one JSON document on stdout instead of the lines')
    .action(async (options: { all?: boolean; limit: number; json?: boolean }) => {
      const letters = await listDeadLetters(db, { includeRedriven: options.all, limit: options.limit });
      if (options.json) {
        process.stdout.write(jsonDocument({ deadLetters: letters.map(deadLetterRecord) }));
        return;
      }
      for (const letter of letters) console.log(deadLetterLine(letter));
      if (letters.length === 0) process.stderr.write('no dead letters\n');
    });

  program
    .command('show')
    .argument('<id>', 'dead letter id', id)
    .description('the reason and the raw payload of one dead letter')
    .action(async (letterId: number) => {
      const [letter] = await getDeadLetters(db, [letterId]);
      if (!letter) {
        process.stderr.write(`no dead letter ${letterId}\n`);
        process.exitCode = 1;
        return;
      }
      console.log(deadLetterJson(letter));
    });

  program
    .command('redrive')
    .argument(
      '[ids...]',
      'dead letter ids',
      (value: string, previous: number[]) => [...previous, id(value)],
      [],
    )
    .option('--all', 're-drive every pending dead letter')
    .description('validate again (after a fix) and ingest what is now valid; idempotent')
    .action(async (ids: number[], options: { all?: boolean }) => {
      if (!options.all && ids.length === 0) program.error('error: give dead letter ids or --all');
      const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs: 30_000, maxRetries: 3 });
      try {
        const result = await redriveDeadLetters(projectorDependencies(client), options.all ? 'all' : ids);
        for (const failure of result.stillInvalid) {
          process.stderr.write(`dead letter ${failure.id}: still invalid (${column(failure.reason)})\n`);
        }
        process.stderr.write(
          `re-driven ${result.redriven} (${result.stored} stored, ${result.duplicates} already stored), ` +
            `${result.stillInvalid.length} still invalid\n`,
        );
        if (result.stillInvalid.length > 0) process.exitCode = 1;
      } finally {
        await client.close();
      }
    });

  program
    .command('projections')
    .description('places whose index document Elasticsearch refused for its content (projection failures)')
    .option('--limit <n>', 'at most this many', (value) => id(value), 100)
    .option('--json', 'print one JSON document on stdout instead of the lines')
    .action(async (options: { limit: number; json?: boolean }) => {
      const failures = await listProjectionFailures(db, { limit: options.limit });
      const counts = await countProjectionFailures(db);
      const total = counts.reduce((sum, count) => sum + count.count, 0);
      if (options.json) {
        const countsByErrorType = counts.map(({ errorType, count }) => ({ errorType, count }));
        const projectionFailures = failures.map(projectionFailureRecord);
        process.stdout.write(jsonDocument({ total, countsByErrorType, projectionFailures }));
        return;
      }
      for (const failure of failures) console.log(projectionFailureLine(failure));
      process.stderr.write(
        total === 0
          ? 'no projection failures\n'
          : `${total} projection failures (${counts.map((count) => `${column(count.errorType)}: ${count.count}`).join(', ')})\n`,
      );
    });

  program
    .command('retry-projections')
    .argument('[placeIds...]', 'place ids')
    .option('--all', 'every projection failure')
    .description('project refused places again (after a fix); still refused ones stay listed with the reason')
    .action(async (placeIds: string[], options: { all?: boolean }) => {
      if (!options.all && placeIds.length === 0) program.error('error: give place ids or --all');
      const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs: 30_000, maxRetries: 3 });
      try {
        const result = await retryProjectionFailures(
          projectorDependencies(client),
          options.all ? 'all' : placeIds,
        );
        for (const failure of result.stillRefused) {
          process.stderr.write(
            `place ${column(failure.placeId)}: still refused (${failure.status} ${column(failure.errorType)})\n`,
          );
        }
        process.stderr.write(
          `retried ${result.retried} places: ${result.projected} projected, ${result.stillRefused.length} still refused\n`,
        );
        if (result.stillRefused.length > 0) process.exitCode = 1;
      } finally {
        await client.close();
      }
    });

  // A failure (a database or Elasticsearch not answering) is thrown, for `directory` to exit 3.
  try {
    await program.parseAsync(argv, { from: 'user' });
  } finally {
    await db.destroy();
  }
}
