import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  compiledBuildProblem,
  directoryArguments,
  freePort,
  nodeArguments,
  ownPortSlice,
  portSlice,
  processModeOf,
  TEST_PORT_RANGE,
} from '../src/processes.js';

describe('how startProcess runs an entry', () => {
  it('runs the directory command from its TypeScript source through tsx by default', () => {
    expect(processModeOf({})).toBe('source');
    expect(nodeArguments('services/api/src/server.ts', ['--x'], 'source')).toEqual([
      '--import',
      'tsx',
      'services/directory/src/directory.ts',
      'api',
      '--x',
    ]);
  });

  it('runs the compiled directory command for the entry in compiled mode', () => {
    expect(processModeOf({ DIRECTORY_PROCESSES: 'compiled' })).toBe('compiled');
    expect(nodeArguments('services/worker/src/main.ts', [], 'compiled')).toEqual([
      '--enable-source-maps',
      'dist/directory.js',
      'worker',
    ]);
    expect(
      nodeArguments('packages/ingest/src/ingest.cli.ts', ['events.ndjson', '--wait'], 'compiled'),
    ).toEqual(['--enable-source-maps', 'dist/directory.js', 'ingest', 'events.ndjson', '--wait']);
  });

  it("runs a spec's own fixture as it is from source, in both modes", () => {
    for (const mode of ['source', 'compiled'] as const)
      expect(nodeArguments('packages/http-server/test/fixtures/drain-server.ts', ['--x'], mode)).toEqual([
        '--import',
        'tsx',
        'packages/http-server/test/fixtures/drain-server.ts',
        '--x',
      ]);
  });

  it('runs `directory <args>` itself from source or from the build', () => {
    expect(directoryArguments(['--version'], 'source')).toEqual([
      '--import',
      'tsx',
      'services/directory/src/directory.ts',
      '--version',
    ]);
    expect(directoryArguments(['keys', 'list'], 'compiled')).toEqual([
      '--enable-source-maps',
      'dist/directory.js',
      'keys',
      'list',
    ]);
  });

  it('runs a development tool from source in both modes', () => {
    expect(nodeArguments('packages/sample-data/src/generate.cli.ts', [], 'compiled')).toEqual([
      '--import',
      'tsx',
      'packages/sample-data/src/generate.cli.ts',
    ]);
  });

  it('refuses an entry the compiled build does not run, and an unknown mode', () => {
    expect(() => nodeArguments('services/api/src/app.ts', [], 'compiled')).toThrow(
      /has no directory command/,
    );
    expect(() => processModeOf({ DIRECTORY_PROCESSES: 'dist' })).toThrow(/source or compiled/);
  });
});

describe('compiledBuildProblem', () => {
  let root: string;
  afterEach(() => rm(root, { recursive: true, force: true }));

  async function buildFrom(source: string): Promise<void> {
    await mkdir(join(root, 'dist'));
    await mkdir(join(root, 'src'));
    await writeFile(join(root, 'src', 'main.ts'), source);
    await writeFile(join(root, 'dist', 'directory.js'), source);
    await writeFile(
      join(root, 'dist', 'directory.meta.json'),
      JSON.stringify({ inputs: { 'src/main.ts': {} } }),
    );
  }

  it('names a missing build, a source changed since it, and passes a fresh one', async () => {
    root = await mkdtemp(join(tmpdir(), 'compiled-build-'));
    expect(compiledBuildProblem(root)).toMatch(/dist\/directory\.js is missing: run npm run build first/);

    await buildFrom('export {};');
    const earlier = new Date(Date.now() - 60_000);
    await utimes(join(root, 'src', 'main.ts'), earlier, earlier);
    expect(compiledBuildProblem(root)).toBeUndefined();

    const later = new Date(Date.now() + 60_000);
    await utimes(join(root, 'src', 'main.ts'), later, later);
    expect(compiledBuildProblem(root)).toMatch(/older than src\/main\.ts: run npm run build again/);

    await rm(join(root, 'src', 'main.ts'));
    expect(compiledBuildProblem(root)).toMatch(/older than src\/main\.ts/);
  });
});

describe('ports for the processes tests start', () => {
  it('gives each worker its own slice, all below the ephemeral range with room for a cluster bus', () => {
    const slices = Array.from({ length: 8 }, (_, worker) => portSlice(worker));
    for (const [index, slice] of slices.entries()) {
      expect(slice.first).toBeGreaterThanOrEqual(TEST_PORT_RANGE.first);
      expect(slice.last + 10_000).toBeLessThan(32_768);
      if (index > 0) expect(slice.first).toBe(slices[index - 1]!.last + 1);
    }
    expect(portSlice(9)).toEqual(portSlice(1));
  });

  it('hands out bindable ports of its slice, none twice in turn', async () => {
    const slice = ownPortSlice();
    const ports = [];
    for (let count = 0; count < 20; count++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(slice.first);
      expect(port).toBeLessThanOrEqual(slice.last);
    }
  });
});
