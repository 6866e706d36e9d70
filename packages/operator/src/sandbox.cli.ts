// `directory sandbox load [--events N] [--seed S]`: replace the sandbox dataset (what `dk_test_` keys
// read) with the deterministic sample data. Exit codes: docs/operations.md, "Exit codes".
import { Presets, SingleBar } from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import { databaseTimeouts, loadConfigOrExit, ownerDatabaseUrls, sandboxStoreNames } from '@directory/config';
import { createDatabase, prepareDatabase } from '@directory/database';
import { createLinePacer } from '@directory/domain';
import { createSearchClient } from '@directory/search-index';
import { positiveInteger } from './cli-arguments.js';
import { SandboxRefusedError } from './sandbox-guard.js';
import { SANDBOX_DEFAULTS, loadSandbox } from './sandbox.service.js';

function integer(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new InvalidArgumentError('must be an integer');
  return parsed;
}

/** `directory sandbox …`: `argv` is what follows the command's name. */
export async function runSandboxCommand(argv: string[]): Promise<void> {
  const program = new Command()
    .name('sandbox')
    .description(
      'The sandbox dataset that test-mode (dk_test_) API keys read, kept in a database and an index of its ' +
        'own (SANDBOX_DATABASE_URL, SANDBOX_ELASTICSEARCH_INDEX).',
    )
    .showHelpAfterError()
    // --help exits 0 here; a usage error is thrown, for `directory` to exit 2.
    .exitOverride((error) => {
      if (error.exitCode !== 0) throw error;
    });

  program
    .command('load')
    .description(
      'replace the sandbox with the deterministic sample data (the same records for the same --events and --seed)',
    )
    .option('--events <n>', 'sample events to generate', positiveInteger, SANDBOX_DEFAULTS.events)
    .option('--seed <n>', 'seed of the sample data', integer, SANDBOX_DEFAULTS.seed)
    .action(async (options: { events: number; seed: number }) => {
      const config = loadConfigOrExit();
      const names = sandboxStoreNames(config);
      // As the owner: the load empties the sandbox's tables (TRUNCATE), which the services' role may not.
      const databaseUrl = ownerDatabaseUrls(config).sandbox;
      const log = (line: string) => process.stderr.write(`[sandbox] ${line}\n`);
      const timeouts = databaseTimeouts(config, 'job');
      if ((await prepareDatabase(databaseUrl, timeouts)).created) log('created the sandbox database');
      const db = createDatabase(databaseUrl, {
        maxConnections: 2,
        timeouts,
      });
      const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs: 120_000, maxRetries: 3 });
      const bar = process.stderr.isTTY
        ? new SingleBar(
            { format: 'load {bar} {percentage}% | {value}/{total} events', hideCursor: true },
            Presets.shades_classic,
          )
        : undefined;
      try {
        log(`loading ${options.events} sample events (seed ${options.seed}) into alias ${names.alias}`);
        bar?.start(options.events, 0);
        const lineDue = createLinePacer();
        const summary = await loadSandbox({
          db,
          search: { client, alias: names.alias },
          siteOrigin: config.SITE_ORIGIN,
          events: options.events,
          seed: options.seed,
          onProgress: (done) => {
            bar?.update(done);
            if (!bar && lineDue(done === options.events)) log(`${done}/${options.events} events`);
          },
        });
        bar?.stop();
        log(
          `loaded: ${summary.events} events (${summary.stored} stored, ${summary.duplicates} duplicates, ` +
            `${summary.deadLettered} rejected as a producer's mistakes would be); ${summary.served} records served`,
        );
      } catch (error) {
        bar?.stop();
        // SANDBOX_DATABASE_URL names a database that is not the sandbox: a configuration error (exit 2).
        if (!(error instanceof SandboxRefusedError)) throw error;
        log(`refused: ${error.message}`);
        process.exitCode = 2;
      } finally {
        await db.destroy();
        await client.close();
      }
    });

  await program.parseAsync(argv, { from: 'user' });
}
