import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What makes a spec start a process or build the bundle: its place is the smoke project. */
const STARTS_OR_BUILDS = [/from 'node:child_process'/, /\bstartProcess\(/, /infra\/build\/bundle/];

/** The unit project's spec files (vitest.config.ts: `*.unit.spec.ts` under packages/*, services/*, test/). */
function unitSpecFiles(): string[] {
  const testFolders = ['packages', 'services'].flatMap((parent) =>
    readdirSync(join(ROOT, parent)).map((workspace) => join(parent, workspace, 'test')),
  );
  return [...testFolders, 'test']
    .filter((folder) => existsSync(join(ROOT, folder)))
    .flatMap((folder) =>
      readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.unit.spec.ts') && !file.includes('node_modules'))
        .map((file) => join(folder, file)),
    );
}

describe('the unit tier', () => {
  it('starts no process and builds nothing: such specs are *.smoke.spec.ts', () => {
    const files = unitSpecFiles();
    expect(files.length).toBeGreaterThan(100);
    // This spec names the patterns itself.
    const others = files.filter((file) => file !== join('test', 'architecture', 'unit-tier.unit.spec.ts'));
    const offenders = others.filter((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      return STARTS_OR_BUILDS.some((pattern) => pattern.test(text));
    });
    expect(offenders).toEqual([]);
  });
});
