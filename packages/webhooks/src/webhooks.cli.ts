// `directory webhooks list [--account EMAIL] [--json]` | `disable ENDPOINT_ID --reason TEXT`
// | `block --account EMAIL --reason TEXT` | `unblock --account EMAIL`
// The operator's brake on webhooks: see who is behind, switch one endpoint off, or stop an account's
// webhooks altogether (its owner cannot switch them back on in the console).
import { Command } from 'commander';
import { loadConfigOrExit } from '@directory/config';
import { withCommandDatabase, type Database } from '@directory/database';
import { escapeControlCharacters } from '@directory/domain';
import {
  blockAccount,
  disableEndpointByOperator,
  listEndpointsForOperator,
  unblockAccount,
} from './operator.repository.js';

const say = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
  return withCommandDatabase(loadConfigOrExit().DATABASE_URL, work);
}

/** A request the command refuses (no such endpoint or account): exit 1, with the reason. */
class CliError extends Error {}

/** `directory webhooks …`: `argv` is what follows the command's name. */
export async function runWebhooksCommand(argv: string[]): Promise<void> {
  const program = new Command('webhooks')
    .description("Operator controls of accounts' webhook endpoints")
    // --help exits 0 here; a usage error is thrown, for `directory` to exit 2.
    .exitOverride((error) => {
      if (error.exitCode !== 0) throw error;
    });

  program
    .command('list')
    .description('endpoints, most backlogged first: id, account, url, countries, state, pending, blocked')
    .option('--account <email>', 'only this account')
    .option('--json', 'print one JSON document on stdout instead of the table')
    .action(async (options: { account?: string; json?: boolean }) => {
      await withDatabase(async (db) => {
        const endpoints = await listEndpointsForOperator(
          db,
          options.account === undefined ? {} : { accountEmail: options.account },
        );
        if (options.json) {
          process.stdout.write(`${JSON.stringify({ endpoints })}\n`);
          return;
        }
        process.stdout.write('id\taccount\turl\tcountries\tstate\tpending\tblocked\n');
        for (const endpoint of endpoints) {
          const state = endpoint.enabled
            ? 'enabled'
            : `disabled (${endpoint.disabledReason ?? 'by its owner'})`;
          const columns = [
            endpoint.id,
            endpoint.accountEmail,
            // Typed by account holders: shown with control characters escaped.
            escapeControlCharacters(endpoint.url),
            endpoint.countries.join(','),
            escapeControlCharacters(state),
            String(endpoint.pending),
            endpoint.blockedReason === null ? '-' : escapeControlCharacters(endpoint.blockedReason),
          ];
          process.stdout.write(`${columns.join('\t')}\n`);
        }
        say(`[webhooks] ${endpoints.length} endpoint(s)`);
      });
    });

  program
    .command('disable')
    .description('disable one endpoint and abandon its pending deliveries (its owner may enable it again)')
    .argument('<endpoint-id>', 'endpoint id (see list)')
    .requiredOption('--reason <text>', 'why, shown to the account in the console')
    .action(async (endpointId: string, options: { reason: string }) => {
      await withDatabase(async (db) => {
        if (!(await disableEndpointByOperator(db, endpointId, options.reason)))
          throw new CliError(`no endpoint with id ${endpointId}`);
        say(`[webhooks] disabled ${endpointId}`);
      });
    });

  program
    .command('block')
    .description('stop every webhook of an account until unblocked; abandons what was pending')
    .requiredOption('--account <email>', 'account email')
    .requiredOption('--reason <text>', 'why, shown to the account in the console')
    .action(async (options: { account: string; reason: string }) => {
      await withDatabase(async (db) => {
        if (!(await blockAccount(db, options.account, options.reason)))
          throw new CliError(`no account ${options.account}`);
        say(`[webhooks] blocked the webhooks of ${options.account}`);
      });
    });

  program
    .command('unblock')
    .description("let an account's webhooks flow again (changes from now on)")
    .requiredOption('--account <email>', 'account email')
    .action(async (options: { account: string }) => {
      await withDatabase(async (db) => {
        if (!(await unblockAccount(db, options.account)))
          throw new CliError(`the webhooks of ${options.account} were not blocked`);
        say(`[webhooks] unblocked the webhooks of ${options.account}`);
      });
    });

  // Exit codes (docs/operations.md, "Exit codes"): a refusal is 1; usage errors and failures are thrown,
  // for `directory` to map to 2 or 3.
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    say(`[webhooks] ${error.message}`);
    process.exitCode = 1;
  }
}
