import { CommanderError } from 'commander';

/**
 * The exit codes of every `directory` command (docs/operations.md, "Exit codes"): a cron job or a
 * deployment script tells "look at this" from "the command is wrong" from "something is down".
 */
export const EXIT_CODES = {
  ok: 0,
  /** The command worked and found something to act on (a dead letter, a failed job, a stalled pipeline). */
  needsAttention: 1,
  /** Unknown command or option, bad argument, invalid configuration. */
  usage: 2,
  /** A dependency did not answer, or the command failed unexpectedly. */
  failure: 3,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/**
 * The exit code for an error a command threw. Commander's errors are usage errors (its `--help` and
 * `--version` are thrown too, with exit code 0); anything else is a failure.
 */
export function exitCodeForError(error: unknown): ExitCode {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
  return EXIT_CODES.failure;
}

/**
 * The exit code for a command that returned: what it set in `process.exitCode` when that is one of
 * the codes above (0, 1, or 2 for a usage error it found itself), otherwise a failure.
 */
export function exitCodeForOutcome(exitCode: number | string | null | undefined): ExitCode {
  if (exitCode === undefined || exitCode === null) return EXIT_CODES.ok;
  const code = Number(exitCode);
  const known = Object.values(EXIT_CODES).find((value) => value === code);
  return known ?? EXIT_CODES.failure;
}
