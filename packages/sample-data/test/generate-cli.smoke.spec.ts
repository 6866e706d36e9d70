import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The CLI as a user runs it (a process, no servers): tsx from the workspace root.
const root = join(import.meta.dirname, '..', '..', '..');
const cli = join(root, 'packages', 'sample-data', 'src', 'generate.cli.ts');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const workDir = mkdtempSync(join(tmpdir(), 'sample-data-'));

function generate(...args: string[]) {
  return spawnSync(tsx, [cli, '--no-progress', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    // 20,000 events are ~20 MB; the default 1 MB buffer would cut the output short.
    maxBuffer: 256 * 1024 * 1024,
  });
}

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

// Each case starts a process (~1 s of tsx start-up), more than the default 5 s when specs run in parallel.
describe('data:generate CLI', { timeout: 60_000 }, () => {
  it('writes exactly --count NDJSON lines, byte-identical for the same seed, to a file or stdout', () => {
    const file = join(workDir, 'events.ndjson');
    const toFile = generate('--count', '250', '--seed', '9', '--out', file);
    expect(toFile.status, toFile.stderr).toBe(0);
    const written = readFileSync(file, 'utf8');
    expect(written.endsWith('\n')).toBe(true);
    const lines = written.trimEnd().split('\n');
    expect(lines).toHaveLength(250);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();

    const toStdout = generate('--count', '250', '--seed', '9');
    expect(toStdout.status, toStdout.stderr).toBe(0);
    expect(toStdout.stdout).toBe(written);
    expect(toStdout.stderr).toMatch(/wrote 250 events/);
    expect(toStdout.stderr).toMatch(/place\.crawled\s+\d+/);
    expect(toStdout.stderr).toMatch(/invalid\s+\d+/);
    expect(toStdout.stderr).toMatch(/served-estimate\s+\d+/);
  });

  it('uses count 20000 and seed 42 by default', () => {
    const byDefault = generate();
    expect(byDefault.status, byDefault.stderr).toBe(0);
    expect(byDefault.stdout.trimEnd().split('\n')).toHaveLength(20_000);
    const explicit = generate('--count', '20000', '--seed', '42', '--out', '-');
    expect(explicit.stdout).toBe(byDefault.stdout);
  });

  it.each([
    [['--count', 'many'], /--count must be a whole number/],
    [['--count', '-3'], /--count must be a whole number/],
    [['--seed', '1.5'], /--seed must be a whole number/],
    [['--start-time', 'tomorrow'], /ISO 8601/],
    [['--colour', 'blue'], /unknown option/],
    [['--count', '5', '--out', join(workDir, 'missing', 'x.ndjson')], /ENOENT/],
  ])('rejects %j with a clear message and a non-zero exit', (args, message) => {
    const result = generate(...args);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });
});
