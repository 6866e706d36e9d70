import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importTimeEffects, reachableSources, workspaceImportsOf } from './import-effects.js';

// A command module exports the function `directory` calls and runs nothing when imported: importing it
// (a test, a bundler's analysis, another command) neither reads the configuration nor parses
// `process.argv`, starts a server or exits.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COMMANDS = 'services/directory/src/commands.ts';

describe('the modules of the directory commands', () => {
  const commandModules = workspaceImportsOf(ROOT, join(ROOT, COMMANDS)).map((file) => relative(ROOT, file));

  it('have nothing but declarations at their top level', () => {
    expect(commandModules.length).toBeGreaterThanOrEqual(14);
    for (const file of commandModules) {
      const { statements, commandSteps } = importTimeEffects(readFileSync(join(ROOT, file), 'utf8'));
      expect([...statements, ...commandSteps], `${file} runs when imported`).toEqual([]);
    }
  });

  it('reach no module that awaits, reads the configuration, parses arguments or exits when imported', () => {
    const reached = reachableSources(ROOT, COMMANDS);
    expect(reached).toEqual(expect.arrayContaining(commandModules));
    for (const file of reached) {
      const { commandSteps } = importTimeEffects(readFileSync(join(ROOT, file), 'utf8'));
      expect(commandSteps, `${file} runs part of a command when imported`).toEqual([]);
    }
    // It parses every module the commands reach (hundreds): a few seconds when both cores are busy.
  }, 30_000);
});

describe('import-time effects', () => {
  it('finds a command run at the top level of a module', () => {
    const script = [
      "import { Command } from 'commander';",
      'const config = loadConfigOrExit();',
      "const program = new Command('keys');",
      'program.parse();',
      'const options = program.opts();',
      'await program.parseAsync(process.argv);',
      'if (options.wait) process.exit(1);',
    ].join('\n');
    expect(importTimeEffects(script)).toEqual({
      statements: [
        'line 4: program.parse();',
        'line 6: await program.parseAsync(process.argv);',
        'line 7: if (options.wait) process.exit(1);',
      ],
      commandSteps: [
        'line 2: loadConfigOrExit()',
        'line 4: program.parse()',
        'line 6: await program.parseAsync(process.argv)',
        'line 7: process.exit(1)',
      ],
    });
  });

  it('finds nothing in a module that only declares what runs later', () => {
    const module = [
      "import { Command } from 'commander';",
      'const MAX = 50;',
      "const header = JSON.parse('{}');",
      'const say = (line: string) => process.stderr.write(line);',
      'class CliError extends Error {}',
      'export async function runKeysCommand(argv: string[]): Promise<void> {',
      '  const config = loadConfigOrExit();',
      "  const program = new Command('keys');",
      "  await program.parseAsync(argv, { from: 'user' });",
      '  process.exit(0);',
      '}',
    ].join('\n');
    expect(importTimeEffects(module)).toEqual({ statements: [], commandSteps: [] });
  });
});
