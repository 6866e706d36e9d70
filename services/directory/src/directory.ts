// `directory <command>`: the one operator and process command (docs/operations.md, "The directory
// command"). `npm run <command>` runs the same through tsx.
import { Command } from 'commander';
import { escapeControlCharacters } from '@directory/domain';
import rootPackage from '../../../package.json' with { type: 'json' };
import { DIRECTORY_COMMANDS, type DirectoryCommand } from './commands.js';
import { defaultNodeEnv } from './default-node-env.js';
import { EXIT_CODES, exitCodeForError, exitCodeForOutcome } from './exit-codes.js';

// Before any command reads its configuration (commands are imported when they run): an unset NODE_ENV
// is production when compiled. The config's own default (development) serves the sources and tests.
if (!process.env.NODE_ENV) process.env.NODE_ENV = defaultNodeEnv(import.meta.url);

let running: DirectoryCommand | undefined;

/** Runs one command with the arguments that follow its name. */
async function runCommand(command: DirectoryCommand, commandArguments: string[]): Promise<void> {
  running = command;
  await command.run(commandArguments);
}

const program = new Command('directory')
  .description('The doctor and clinic directory: its processes and its operator commands.')
  .usage('<command> [options]')
  .version(rootPackage.version, '-V, --version', 'print the version')
  .helpCommand(false)
  .enablePositionalOptions()
  .showHelpAfterError('(directory --help lists the commands; directory <command> --help, its options)')
  .exitOverride();

for (const command of DIRECTORY_COMMANDS) {
  const subcommand = program.command(command.name).description(command.description);
  if (command.ownArguments) {
    // Its options, subcommands and --help are its own: everything after its name is passed through.
    subcommand
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .passThroughOptions()
      .action((_options: unknown, self: Command) => runCommand(command, self.args));
  } else {
    subcommand.action(() => runCommand(command, []));
  }
}

try {
  await program.parseAsync(process.argv);
  // A server keeps running; any other command has finished: exit now with its code, whatever
  // connections or timers a client library left open.
  if (!running?.keepsRunning) process.exit(exitCodeForOutcome(process.exitCode));
} catch (error) {
  const exitCode = exitCodeForError(error);
  // Commander has already printed its own errors (usage, 2); a failure (3) is said here.
  if (exitCode === EXIT_CODES.failure) {
    const message = error instanceof Error ? error.message : String(error);
    // The message may quote data (a key name, a document): shown with its controls escaped.
    process.stderr.write(`directory ${running?.name ?? ''}: ${escapeControlCharacters(message)}\n`);
  }
  process.exit(exitCode);
}
