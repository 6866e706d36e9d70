// `npm run keys -- create --account EMAIL --name NAME [--expires never|30|90|365] [--mode live|test]`
// | `list [--account EMAIL]`
// | `revoke ID` | `roll ID --grace none|1h|24h`
// The operator's key management. A new secret is printed once, alone, as the last line of stdout;
// everything else goes to stderr so `$(npm run -s keys -- create …)` captures just the secret.
import { Command, InvalidArgumentError } from 'commander';
import {
  REDIS_COMMAND_TIMEOUT_MS,
  createRedisClient,
  isRedisUnavailableError,
  loadConfigOrExit,
  redisSettingName,
} from '@directory/config';
import { withCommandDatabase, type Database } from '@directory/database';
import {
  API_KEY_MODES,
  KEY_EXPIRY_CHOICES,
  KEY_GRACE_CHOICES,
  escapeControlCharacters,
  isKeyExpiryChoice,
  isApiKeyMode,
  isKeyGraceChoice,
  keyStateAt,
  type ApiKeyMode,
  type KeyExpiryChoice,
  type KeyGraceChoice,
} from '@directory/domain';
import { AccountNotFoundError, ensureAccount, findAccountByEmail } from './account.repository.js';
import {
  ApiKeyLimitError,
  InvalidKeyNameError,
  KeyNotRollableError,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  rollApiKey,
} from './api-key.repository.js';
import { createKeyVouches, type KeyVouches } from './key-vouches.js';

const say = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
  return withCommandDatabase(loadConfigOrExit().DATABASE_URL, work);
}

/**
 * For writes to a key's row: the database, and Redis to bar the key first (key-vouches.ts), over the
 * services' connection settings: a Redis that is down or paused fails the command within seconds.
 */
export async function withKeyWrites<T>(work: (db: Database, vouches: KeyVouches) => Promise<T>): Promise<T> {
  const config = loadConfigOrExit();
  const redis = createRedisClient(config, 'service');
  // Connection errors surface as the command's own failure, below.
  redis.on('error', () => undefined);
  try {
    return await withDatabase((db) => work(db, createKeyVouches(redis, config.REDIS_PREFIX)));
  } catch (error) {
    // Not a refusal: a dependency did not answer (exit 3 from `directory`).
    if (isRedisUnavailableError(error))
      throw new Error(
        `Redis did not answer at ${redisSettingName(config)} within ${REDIS_COMMAND_TIMEOUT_MS / 1000} s (revoke and roll bar the key in Redis before and after writing it, and write nothing when the first bar fails): see with \`list\` whether the change was made, and run the command again once Redis answers`,
      );
    throw error;
  } finally {
    redis.disconnect();
  }
}

function choice<T extends string>(choices: readonly T[], accepts: (value: string) => value is T) {
  return (value: string): T => {
    if (!accepts(value)) throw new InvalidArgumentError(`choose one of ${choices.join(', ')}`);
    return value;
  };
}

/** A request the command refuses (no such key or account, a limit): exit 1, with the reason. */
class CliError extends Error {}

/** `directory keys …`: `argv` is what follows the command's name. */
export async function runKeysCommand(argv: string[]): Promise<void> {
  const program = new Command('keys')
    .description('Operator API key management (the secret is shown once, at creation)')
    // --help exits 0 here; a usage error is thrown, for `directory` to exit 2.
    .exitOverride((error) => {
      if (error.exitCode !== 0) throw error;
    });

  program
    .command('create')
    .description('create a key for an account (created if missing, unable to sign in)')
    .requiredOption('--account <email>', 'account email')
    .requiredOption('--name <name>', 'a name that tells the key apart')
    .option(
      '--expires <days>',
      `lifetime in days: ${KEY_EXPIRY_CHOICES.join(', ')}`,
      choice(KEY_EXPIRY_CHOICES, isKeyExpiryChoice),
      'never',
    )
    .option(
      '--mode <mode>',
      `${API_KEY_MODES.join(' or ')}: a test key reads the sandbox dataset only (docs/api.md, "Sandbox")`,
      choice(API_KEY_MODES, isApiKeyMode),
      'live',
    )
    .action(
      async (options: { account: string; name: string; expires: KeyExpiryChoice; mode: ApiKeyMode }) => {
        await withDatabase(async (db) => {
          const account = await ensureAccount(db, options.account);
          if (account.created) say(`[keys] created account ${options.account} (${account.id})`);
          const { key, secret } = await createApiKey(db, {
            accountId: account.id,
            name: options.name,
            expiry: options.expires,
            mode: options.mode,
          });
          const expiry = key.expiresAt === null ? 'never expires' : `expires ${key.expiresAt.toISOString()}`;
          say(
            `[keys] created ${key.mode} key ${key.id} "${key.name}" (prefix ${key.prefix}, ${expiry}) for ${options.account}`,
          );
          say('[keys] the secret below is shown once; store it in server-side secret storage');
          process.stdout.write(`${secret}\n`);
        });
      },
    );

  program
    .command('list')
    .description('list keys: id, name, prefix, created, revoked, expires, last used, state, mode')
    .option('--account <email>', 'only this account')
    .option('--json', 'print one JSON document on stdout instead of the table')
    .action(async (options: { account?: string; json?: boolean }) => {
      await withDatabase(async (db) => {
        let accountId: string | undefined;
        if (options.account !== undefined) {
          const found = await findAccountByEmail(db, options.account);
          if (found === null) throw new CliError(`no account ${options.account}`);
          accountId = found;
        }
        const keys = await listApiKeys(db, accountId);
        const now = new Date();
        if (options.json) {
          // docs/operations.md, "keys list --json". JSON escapes control characters itself.
          const document = {
            keys: keys.map((key) => ({
              id: key.id,
              name: key.name,
              prefix: key.prefix,
              createdAt: key.creationTime.toISOString(),
              revokedAt: key.revokedAt?.toISOString() ?? null,
              expiresAt: key.expiresAt?.toISOString() ?? null,
              lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
              state: keyStateAt(key, now),
              mode: key.mode,
            })),
          };
          process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
          return;
        }
        // Revoked: when it stops working (in the future for a rolled key in its grace period, then
        // "retiring"). Last used lags requests by up to a usage flush interval. Mode is the last column,
        // so scripts that read the others by position keep working.
        process.stdout.write('id\tname\tprefix\tcreated\trevoked\texpires\tlast used\tstate\tmode\n');
        const time = (date: Date | null): string => date?.toISOString() ?? '-';
        for (const key of keys) {
          const columns = [
            key.id,
            // Named by account holders in the console: shown with its control characters escaped.
            escapeControlCharacters(key.name),
            key.prefix,
            time(key.creationTime),
            time(key.revokedAt),
            time(key.expiresAt),
            time(key.lastUsedAt),
            keyStateAt(key, now),
            key.mode,
          ];
          process.stdout.write(`${columns.join('\t')}\n`);
        }
        say(`[keys] ${keys.length} key(s)`);
      });
    });

  program
    .command('revoke')
    .description('revoke a key; effective on the next request')
    .argument('<id>', 'key id (see list)')
    .action(async (id: string) => {
      await withKeyWrites(async (db, vouches) => {
        const key = await revokeApiKey(db, vouches, id);
        if (key === null) throw new CliError(`no key with id ${id}`);
        say(`[keys] revoked ${key.id} "${key.name}" at ${key.revokedAt?.toISOString() ?? '?'}`);
      });
    });

  program
    .command('roll')
    .description(
      'replace a key by a new one with the same name; the old secret keeps working for the grace period',
    )
    .argument('<id>', 'key id (see list)')
    .requiredOption(
      '--grace <period>',
      `how long the old secret keeps working: ${KEY_GRACE_CHOICES.join(', ')}`,
      choice(KEY_GRACE_CHOICES, isKeyGraceChoice),
    )
    .action(async (id: string, options: { grace: KeyGraceChoice }) => {
      await withKeyWrites(async (db, vouches) => {
        const rolled = await rollApiKey(db, vouches, id, { grace: options.grace });
        if (rolled === null) throw new CliError(`no key with id ${id}`);
        say(
          `[keys] rolled ${rolled.previous.id} "${rolled.previous.name}": its secret stops working at ${rolled.previous.revokedAt?.toISOString() ?? '?'}`,
        );
        say(`[keys] new key ${rolled.key.id} (prefix ${rolled.key.prefix}); the secret below is shown once`);
        process.stdout.write(`${rolled.secret}\n`);
      });
    });

  // Exit codes (docs/operations.md, "Exit codes"): a refusal is 1; commander's usage errors and every
  // other failure (a database or Redis that does not answer) are thrown, for `directory` to map to 2 or 3.
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (
      error instanceof CliError ||
      error instanceof ApiKeyLimitError ||
      error instanceof AccountNotFoundError ||
      error instanceof InvalidKeyNameError ||
      error instanceof KeyNotRollableError
    ) {
      say(`[keys] ${error.message}`);
      process.exitCode = 1;
    } else {
      throw error;
    }
  }
}
