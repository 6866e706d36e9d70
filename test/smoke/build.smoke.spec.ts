import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle, ENTRY, packageNameOf, undeclaredExternals } from '../../infra/build/bundle.js';
import { DIRECTORY_COMMANDS } from '../../services/directory/src/commands.js';
import { COMMAND_OF_ENTRY } from '../../packages/testing/src/processes.js';

// The production build (docs/development.md, "Build") into a folder of its own, then what production
// needs of it: only root production dependencies imported from node_modules, every workspace compiled in.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

type Manifest = {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('npm run build', () => {
  let folder: string;
  let metafile: Metafile;
  let manifest: Manifest;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'directory-build-'));
    manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Manifest;
    ({ metafile } = await bundle(ROOT, ENTRY, join(folder, 'dist')));
  }, 60_000);
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const externalImports = () =>
    Object.values(metafile.outputs).flatMap((output) =>
      output.imports.filter((entry) => entry.external).map((entry) => entry.path),
    );

  it('imports only Node built-ins and production dependencies of the root package.json', () => {
    const packages = externalImports().filter((specifier) => !isBuiltin(specifier));
    expect(packages.length).toBeGreaterThan(0);
    for (const specifier of packages) {
      expect(manifest.dependencies, `${specifier} is imported at run time`).toHaveProperty([
        packageNameOf(specifier),
      ]);
    }
  });

  it('compiles every workspace in: none is left to import at run time', () => {
    const workspaceImports = externalImports().filter(
      (specifier) =>
        specifier.startsWith('@directory/') || specifier.startsWith('.') || specifier.startsWith('/'),
    );
    expect(workspaceImports).toEqual([]);
    const compiledFolders = new Set(
      Object.keys(metafile.inputs).map((input) => input.split('/').slice(0, 2).join('/')),
    );
    for (const workspace of [
      'services/directory',
      'services/api',
      'services/mcp',
      'services/console',
      'services/worker',
    ]) {
      expect(compiledFolders).toContain(workspace);
    }
    expect([...compiledFolders].filter((folder) => folder.startsWith('node_modules'))).toEqual([]);
  });

  it('names an imported package that is only a development dependency', () => {
    const importing = (path: string): Metafile => ({
      inputs: {},
      outputs: {
        'directory.js': {
          bytes: 1,
          inputs: {},
          exports: [],
          imports: [{ path, kind: 'import-statement', external: true }],
        },
      },
    });
    expect(undeclaredExternals(importing('vitest/config'), manifest.dependencies)).toEqual(['vitest/config']);
    expect(undeclaredExternals(importing('node:fs'), manifest.dependencies)).toEqual([]);
    expect(undeclaredExternals(importing('pino'), manifest.dependencies)).toEqual([]);
  });

  it('runs from a copy of dist/, bin/ and package.json beside node_modules, with no NODE_PATH', async () => {
    await mkdir(join(folder, 'bin'));
    await copyFile(join(ROOT, 'bin', 'directory.js'), join(folder, 'bin', 'directory.js'));
    await copyFile(join(ROOT, 'package.json'), join(folder, 'package.json'));
    await symlink(join(ROOT, 'node_modules'), join(folder, 'node_modules'));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(folder, 'bin', 'directory.js'), '--version'],
      {
        cwd: folder,
        env: { PATH: process.env.PATH ?? '' },
        timeout: 30_000,
      },
    );
    expect(stdout.trim()).toBe(manifest.version);
  }, 40_000);

  it('runs as production when NODE_ENV is not set: the development secrets are refused', async () => {
    // Runs after the copy above. `status` reads its configuration first and exits 2 naming each problem.
    const run = await promisify(execFile)(process.execPath, [join(folder, 'bin', 'directory.js'), 'status'], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '' },
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(run.code).toBe(2);
    for (const secret of ['CURSOR_SECRET', 'CONSOLE_SECRET', 'WEBHOOK_SECRET_KEY']) {
      expect(run.stderr).toContain(`${secret}: must be set to a private value in production`);
    }
  }, 40_000);
});

describe("the e2e specs' compiled processes", () => {
  it('map each source entry that exists to a command the directory command has', () => {
    const commands = DIRECTORY_COMMANDS.map((command) => command.name);
    for (const [entry, command] of Object.entries(COMMAND_OF_ENTRY)) {
      expect(existsSync(join(ROOT, entry)), entry).toBe(true);
      expect(commands, entry).toContain(command);
    }
  });
});
