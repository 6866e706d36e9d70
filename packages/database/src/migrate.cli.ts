// `npm run migrate`: create the databases if needed and apply pending migrations (idempotent): the live
// database, then the sandbox's (what test-mode keys read; its own database, the same schema).
import { databaseTimeouts, loadConfigOrExit, ownerDatabaseUrls } from '@directory/config';
import { prepareDatabase } from './migrator.js';

/** `directory migrate`: takes no argument. */
export async function runMigrateCommand(): Promise<void> {
  const config = loadConfigOrExit();
  // As the owner (MIGRATION_DATABASE_URL when the services connect as a role of their own).
  const owner = ownerDatabaseUrls(config);
  for (const [name, url] of [
    ['database', owner.live],
    ['sandbox database', owner.sandbox],
  ] as const) {
    // The server-side bounds every session gets (no start-up parameters: poolers refuse them).
    const { created, applied } = await prepareDatabase(url, databaseTimeouts(config, 'job'));
    if (created) console.error(`[migrate] created ${name}`);
    console.error(
      applied.length
        ? `[migrate] ${name}: applied ${applied.join(', ')}`
        : `[migrate] ${name}: already up to date`,
    );
  }
}
