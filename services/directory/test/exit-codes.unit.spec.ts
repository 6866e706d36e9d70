import { CommanderError, InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, exitCodeForError, exitCodeForOutcome } from '../src/exit-codes.js';

describe('exit codes of the directory command', () => {
  it('maps commander usage errors to 2, its --help and --version to 0', () => {
    expect(exitCodeForError(new CommanderError(1, 'commander.unknownOption', "unknown option '--x'"))).toBe(
      2,
    );
    expect(exitCodeForError(new CommanderError(1, 'commander.unknownCommand', "unknown command 'x'"))).toBe(
      2,
    );
    expect(exitCodeForError(new InvalidArgumentError('must be a positive integer'))).toBe(2);
    expect(exitCodeForError(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toBe(0);
    expect(exitCodeForError(new CommanderError(0, 'commander.version', '1.2.0'))).toBe(0);
  });

  it('maps any other error (a dependency that does not answer, a bug) to 3', () => {
    expect(exitCodeForError(new Error('connect ECONNREFUSED 127.0.0.1:5432'))).toBe(EXIT_CODES.failure);
    expect(exitCodeForError('a string thrown')).toBe(3);
    expect(exitCodeForError(undefined)).toBe(3);
  });

  it('keeps the code a finished command set when it is one of 0-3, anything else is a failure', () => {
    expect(exitCodeForOutcome(undefined)).toBe(0);
    expect(exitCodeForOutcome(0)).toBe(0);
    expect(exitCodeForOutcome(1)).toBe(EXIT_CODES.needsAttention);
    expect(exitCodeForOutcome(2)).toBe(EXIT_CODES.usage);
    expect(exitCodeForOutcome(3)).toBe(3);
    expect(exitCodeForOutcome('1')).toBe(1);
    expect(exitCodeForOutcome(130)).toBe(3);
  });
});
