// `directory db grant-app-role --role NAME`: the services' least-privilege PostgreSQL role in the live and
// the sandbox database (app-role.ts). Run as the owner (MIGRATION_DATABASE_URL, or DATABASE_URL), after
// `directory migrate`. Exit codes: docs/operations.md, "Exit codes".
import { Command, InvalidArgumentError } from 'commander';
import { databaseTimeouts, loadConfigOrExit, ownerDatabaseUrls } from '@directory/config';
import { createDatabase } from '@directory/database';
import { isAppRoleName } from './app-role.js';
import { NotMigratedError, grantAppRole } from './app-role.service.js';

function roleName(value: string): string {
  if (!isAppRoleName(value))
    throw new InvalidArgumentError('must be a lowercase identifier ([a-z_][a-z0-9_]*)');
  return value;
}

const program = new Command()
  .name('db')
  .description('PostgreSQL administration for a deployment (run as the owner of the migrated tables).')
  .showHelpAfterError()
  // --help exits 0 here; a usage error is thrown, for `directory` to exit 2.
  .exitOverride((error) => {
    if (error.exitCode !== 0) throw error;
  });

program
  .command('grant-app-role')
  .description(
    'create the role the services connect as (if missing) and give it exactly their privileges: rows ' +
      'and sequences in the migrated schema, no DDL, no TRUNCATE (idempotent; live and sandbox database)',
  )
  .requiredOption('--role <name>', 'the role, e.g. directory_app', roleName)
  .action(async (options: { role: string }) => {
    const config = loadConfigOrExit();
    const owner = ownerDatabaseUrls(config);
    for (const [name, url] of [
      ['database', owner.live],
      ['sandbox database', owner.sandbox],
    ] as const) {
      const db = createDatabase(url, { maxConnections: 1, timeouts: databaseTimeouts(config, 'job') });
      try {
        await grantAppRole(db, options.role);
        process.stderr.write(`[db] ${name}: role ${options.role} has the services' privileges\n`);
      } catch (error) {
        if (!(error instanceof NotMigratedError)) throw error;
        process.stderr.write(`[db] ${name}: ${error.message}\n`);
        process.exitCode = 1;
        return;
      } finally {
        await db.destroy();
      }
    }
  });

await program.parseAsync();
