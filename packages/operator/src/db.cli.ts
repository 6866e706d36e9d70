// `directory db grant-app-role [--role NAME]`: the services' least-privilege PostgreSQL role in the live
// and the sandbox database (app-role.ts). Run as the owner (MIGRATION_DATABASE_URL), after `directory
// migrate`. Without --role, the role is DATABASE_URL's user, with DATABASE_URL's password (the one
// configuration the services use, so the two cannot disagree).
// `directory db cluster-events`: the live events table rewritten in stream order (events-order.service.ts).
// Exit codes: docs/operations.md, "Exit codes".
import { Command, InvalidArgumentError } from 'commander';
import { databaseTimeouts, loadConfigOrExit, ownerDatabaseUrls } from '@directory/config';
import { createDatabase } from '@directory/database';
import { RoleIsOwnerError, isAppRoleName } from './app-role.js';
import { NotMigratedError, grantAppRole } from './app-role.service.js';
import {
  ClusterCancelledError,
  EventsTableBusyError,
  clusterDiskNeed,
  clusterEvents,
  formatClusterProgress,
  formatDiskNeed,
  rewriteTimeouts,
} from './events-order.service.js';

function roleName(value: string): string {
  if (!isAppRoleName(value))
    throw new InvalidArgumentError('must be a lowercase identifier ([a-z_][a-z0-9_]*)');
  return value;
}

/** `directory db …`: `argv` is what follows the command's name. */
export async function runDbCommand(argv: string[]): Promise<void> {
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
    .option(
      '--role <name>',
      "the role, e.g. directory_app (default: DATABASE_URL's user, and its password)",
      roleName,
    )
    .action(async (options: { role?: string }) => {
      const config = loadConfigOrExit();
      const owner = ownerDatabaseUrls(config);
      const services = new URL(config.DATABASE_URL);
      const servicesUser = decodeURIComponent(services.username);
      const role = options.role ?? servicesUser;
      if (!isAppRoleName(role)) {
        process.stderr.write(
          `[db] DATABASE_URL's user is not a plain lowercase role name: name it with --role\n`,
        );
        process.exitCode = 2;
        return;
      }
      // The password the services will connect with, when they connect as this role (never printed).
      const password =
        role === servicesUser && services.password !== '' ? decodeURIComponent(services.password) : undefined;
      for (const [name, url] of [
        ['database', owner.live],
        ['sandbox database', owner.sandbox],
      ] as const) {
        const db = createDatabase(url, { maxConnections: 1, timeouts: databaseTimeouts(config, 'job') });
        try {
          await grantAppRole(db, role, password);
          process.stderr.write(`[db] ${name}: role ${role} has the services' privileges\n`);
        } catch (error) {
          if (!(error instanceof NotMigratedError || error instanceof RoleIsOwnerError)) throw error;
          process.stderr.write(`[db] ${name}: ${error.message}\n`);
          // The owner named as the services' role is a configuration mistake (2); an unmigrated database, a step to take (1).
          process.exitCode = error instanceof RoleIsOwnerError ? 2 : 1;
          return;
        } finally {
          await db.destroy();
        }
      }
    });

  program
    .command('cluster-events')
    .description(
      'rewrite the events table in stream order (place, then position), the order a replay reads it in; ' +
        'takes the table exclusively: ingest appends wait until it ends (stop the workers first)',
    )
    .option(
      '--through-index',
      'read the rows in index order instead of sorting them: no temporary files as large as the table, ' +
        'slower while the table is scattered',
    )
    .action(async (options: { throughIndex?: boolean }) => {
      const throughIndex = options.throughIndex === true;
      const config = loadConfigOrExit();
      const db = createDatabase(ownerDatabaseUrls(config).live, {
        maxConnections: 2,
        timeouts: rewriteTimeouts(databaseTimeouts(config, 'job')),
      });
      const say = (line: string) => process.stderr.write(`[db] cluster-events: ${line}\n`);
      // Ctrl-C (or a stop) cancels the rewrite on the server, which otherwise goes on holding the table.
      const stop = new AbortController();
      const onStop = () => {
        say('stopping: cancelling the rewrite on the server …');
        stop.abort();
      };
      process.once('SIGINT', onStop);
      process.once('SIGTERM', onStop);
      try {
        say(
          `rewriting the events table in stream order; ${formatDiskNeed(await clusterDiskNeed(db), throughIndex)}`,
        );
        const outcome = await clusterEvents(db, {
          onProgress: (progress) => say(formatClusterProgress(progress)),
          throughIndex,
          signal: stop.signal,
        });
        const order = (value: number | null) => (value === null ? 'unknown' : value.toFixed(2));
        say(
          `done in ${outcome.seconds.toFixed(1)} s: ${(outcome.tableBytes / 1024 / 1024).toFixed(0)} MB, ` +
            `place order correlation ${order(outcome.orderBefore)} before, ${order(outcome.orderAfter)} after`,
        );
      } catch (error) {
        if (!(error instanceof EventsTableBusyError || error instanceof ClusterCancelledError)) throw error;
        say(error.message);
        process.exitCode = 1;
      } finally {
        process.off('SIGINT', onStop);
        process.off('SIGTERM', onStop);
        await db.destroy();
      }
    });

  await program.parseAsync(argv, { from: 'user' });
}
