// `directory accounts delete <email|id> [--dry-run]`: the operator's account deletion, the same erasure
// as the console's "Delete the account" (account-erasure.ts). Exit 1 when there is no such account.
import { Command } from 'commander';
import { eraseAccount, findAccountToErase, planAccountErasure } from './account-erasure.js';
import { withKeyWrites } from './keys.cli.js';

const say = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

class NoSuchAccount extends Error {}

export async function runAccountsCommand(argv: string[]): Promise<void> {
  const program = new Command('accounts').description('Console accounts').exitOverride((error) => {
    if (error.exitCode !== 0) throw error;
  });
  program
    .command('delete')
    .description(
      'delete an account: revoke and bar its keys, remove its webhooks, erase its e-mail, password, sessions and tokens',
    )
    .argument('<account>', 'the e-mail address or account id')
    .option('--dry-run', 'say what would be erased, change nothing')
    .action(async (account: string, options: { dryRun?: boolean }) => {
      await withKeyWrites(async (db, vouches) => {
        const accountId = await findAccountToErase(db, account);
        if (accountId === null) throw new NoSuchAccount(`no account ${account}`);
        const plan = options.dryRun
          ? await planAccountErasure(db, accountId)
          : await eraseAccount(db, vouches, accountId);
        if (plan === null) throw new NoSuchAccount(`no account ${account}`);
        const what = `${plan.keys} key(s) revoked, ${plan.webhooks} webhook endpoint(s) removed, ${plan.sessions} session(s) ended`;
        say(
          options.dryRun
            ? `[accounts] dry run: deleting account ${accountId} would leave ${what}; nothing changed`
            : `[accounts] deleted account ${accountId}: ${what}; e-mail, password and secrets erased`,
        );
      });
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof NoSuchAccount)) throw error;
    say(`[accounts] ${error.message}`);
    process.exitCode = 1;
  }
}
