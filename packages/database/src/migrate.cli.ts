// `npm run migrate`: create the databases if needed and apply pending migrations (idempotent): the live
// database, then the sandbox's (what test-mode keys read; its own database, the same schema).
import { databaseTimeouts, loadConfigOrExit, sandboxStoreNames } from '@directory/config';
import { prepareDatabase } from './migrator.js';

const config = loadConfigOrExit();
for (const [name, url] of [
  ['database', config.DATABASE_URL],
  ['sandbox database', sandboxStoreNames(config).databaseUrl],
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
