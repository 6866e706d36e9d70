// `npm run keys -- create --account EMAIL --name NAME` | `list [--account EMAIL]` | `revoke ID`
// The operator's key management. A new secret is printed once, alone, as the last line of stdout;
// everything else goes to stderr so `$(npm run -s keys -- create …)` captures just the secret.
import { Command, CommanderError } from 'commander';
import { loadConfigOrExit } from '@directory/config';
import { createDatabase, type Database } from '@directory/database';
import {
  AccountNotFoundError,
  ApiKeyLimitError,
  InvalidKeyNameError,
  createApiKey,
  ensureAccount,
  findAccountByEmail,
  listApiKeys,
  revokeApiKey,
} from './api-key.repository.js';

const say = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
  const db = createDatabase(loadConfigOrExit().DATABASE_URL, { maxConnections: 1 });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

const program = new Command('keys')
  .description('Operator API key management (the secret is shown once, at creation)')
  .exitOverride();

program
  .command('create')
  .description('create a key for an account (created if missing, unable to sign in)')
  .requiredOption('--account <email>', 'account email')
  .requiredOption('--name <name>', 'a name that tells the key apart')
  .action(async (options: { account: string; name: string }) => {
    await withDatabase(async (db) => {
      const account = await ensureAccount(db, options.account);
      if (account.created) say(`[keys] created account ${options.account} (${account.id})`);
      const { key, secret } = await createApiKey(db, { accountId: account.id, name: options.name });
      say(`[keys] created key ${key.id} "${key.name}" (prefix ${key.prefix}) for ${options.account}`);
      say('[keys] the secret below is shown once; store it in server-side secret storage');
      process.stdout.write(`${secret}\n`);
    });
  });

program
  .command('list')
  .description('list keys: id, name, prefix, created, revoked')
  .option('--account <email>', 'only this account')
  .action(async (options: { account?: string }) => {
    await withDatabase(async (db) => {
      let accountId: string | undefined;
      if (options.account !== undefined) {
        const found = await findAccountByEmail(db, options.account);
        if (found === null) throw new CliError(`no account ${options.account}`);
        accountId = found;
      }
      const keys = await listApiKeys(db, accountId);
      process.stdout.write('id\tname\tprefix\tcreated\trevoked\n');
      for (const key of keys) {
        const revoked = key.revokedAt?.toISOString() ?? '-';
        process.stdout.write(
          `${key.id}\t${key.name}\t${key.prefix}\t${key.creationTime.toISOString()}\t${revoked}\n`,
        );
      }
      say(`[keys] ${keys.length} key(s)`);
    });
  });

program
  .command('revoke')
  .description('revoke a key; effective on the next request')
  .argument('<id>', 'key id (see list)')
  .action(async (id: string) => {
    await withDatabase(async (db) => {
      const key = await revokeApiKey(db, id);
      if (key === null) throw new CliError(`no key with id ${id}`);
      say(`[keys] revoked ${key.id} "${key.name}" at ${key.revokedAt?.toISOString() ?? '?'}`);
    });
  });

class CliError extends Error {}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode;
  } else if (
    error instanceof CliError ||
    error instanceof ApiKeyLimitError ||
    error instanceof AccountNotFoundError ||
    error instanceof InvalidKeyNameError
  ) {
    say(`[keys] ${error.message}`);
    process.exitCode = 1;
  } else {
    say(`[keys] failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
