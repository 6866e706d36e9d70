import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readFileGraph, relativeImportsOf } from './file-graph.js';
import {
  cyclesOf,
  declarationMismatches,
  dependenciesOf,
  layersOf,
  readDeclaredGraph,
  readPackageGraph,
  readWorkspaces,
  sourceFiles,
  type ImportGraph,
  type WorkspaceFolder,
} from './package-graph.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const graph = readPackageGraph(ROOT);
const workspaces = readWorkspaces(ROOT);
const namesIn = (folder: WorkspaceFolder) =>
  workspaces.filter((workspace) => workspace.folder === folder).map((workspace) => workspace.name);
const PACKAGES = namesIn('packages');
const SERVICES = namesIn('services');
/**
 * The benchmarks (`bench/`) and the repository's tools (`infra/`: build, demo, OpenAPI lint). They sit at
 * the top with the services: they may import packages and services alike (they start the services and
 * drive them), and nothing imports them.
 */
const TOOLS = [...namesIn('bench'), ...namesIn('infra')];
/** The workspace whose folder holds `file`. */
const workspaceOf = (file: string) => workspaces.find((workspace) => file.startsWith(workspace.root + sep));
/** The composition root: one command for every process and operator command, itself a service. */
const COMMAND = 'directory';

describe('package import graph', () => {
  it('has no cycle', () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('is stated by each workspace: its package.json declares exactly the packages its src/ imports', () => {
    expect(declarationMismatches(graph, readDeclaredGraph(ROOT))).toEqual([]);
  });

  it('keeps the pure core and the configuration at the bottom', () => {
    expect([...(graph.get('domain') ?? [])]).toEqual([]);
    expect([...(graph.get('config') ?? [])]).toEqual([]);
  });

  it('keeps the test harness independent of the pipeline it checks', () => {
    expect(dependenciesOf(graph, 'testing').has('ingest')).toBe(false);
  });

  it('keeps the key console free of the search client', () => {
    const consoleDependencies = dependenciesOf(graph, 'console');
    expect(consoleDependencies.has('search-index')).toBe(false);
    expect(consoleDependencies.has('search')).toBe(false);
  });

  it('keeps the worker free of the operator commands', () => {
    expect(dependenciesOf(graph, 'worker').has('operator')).toBe(false);
  });

  it('has no package importing a service: apps sit above the libraries', () => {
    expect(PACKAGES.length).toBeGreaterThan(0);
    for (const name of PACKAGES) {
      const imports = graph.get(name) ?? new Set<string>();
      for (const service of SERVICES) expect(imports.has(service), `${name} imports ${service}`).toBe(false);
    }
  });

  it('keeps the directory command at the top, among the services: nothing imports it', () => {
    expect(SERVICES).toContain(COMMAND);
    for (const [name, imports] of graph)
      expect(imports.has(COMMAND), `${name} imports ${COMMAND}`).toBe(false);
  });

  it('keeps the benchmarks and the tools at the top: nothing imports them (they may import services)', () => {
    expect(TOOLS).toEqual(expect.arrayContaining(['bench', 'build', 'demo', 'openapi-lint']));
    for (const [name, imports] of graph)
      for (const tool of TOOLS) expect(imports.has(tool), `${name} imports ${tool}`).toBe(false);
  });

  it('reads the sources of a workspace without src/ where they are (the benchmarks, the tools)', () => {
    expect(graph.get('bench')).toContain('sample-data');
    expect(graph.get('openapi-lint')).toContain('api');
  });

  it('leaves no TypeScript under bench/ or infra/ outside a workspace: all code is under these rules', () => {
    const loose = ['bench', 'infra']
      .flatMap((folder) => sourceFiles(join(ROOT, folder)))
      .filter((file) => workspaceOf(file) === undefined);
    expect(
      loose,
      'give their folder a package.json (a workspace under infra/* is listed by the root)',
    ).toEqual([]);
  });
});

describe('file import graph', () => {
  it('has no cycle between the source files of any package', () => {
    const files = readFileGraph(ROOT);
    expect(files.size).toBeGreaterThan(100);
    expect(cyclesOf(files)).toEqual([]);
  });

  it('has no source file reaching into another workspace by a relative path, past its declarations', () => {
    const crossings = [...readFileGraph(ROOT)].flatMap(([file, imports]) =>
      [...imports]
        .filter((target) => workspaceOf(join(ROOT, target)) !== workspaceOf(join(ROOT, file)))
        .map((target) => `${file} imports ${target}`),
    );
    expect(crossings).toEqual([]);
  });
});

describe('package graph analysis', () => {
  const sample: ImportGraph = new Map([
    ['a', new Set(['b'])],
    ['b', new Set(['c'])],
    ['c', new Set<string>()],
  ]);

  it('finds layers and transitive dependencies', () => {
    expect(Object.fromEntries(layersOf(sample))).toEqual({ a: 2, b: 1, c: 0 });
    expect(dependenciesOf(sample, 'a')).toEqual(new Set(['b', 'c']));
  });

  it('finds a cycle', () => {
    const cyclic: ImportGraph = new Map([...sample, ['c', new Set(['a'])]]);
    expect(cyclesOf(cyclic).length).toBeGreaterThan(0);
    expect(cyclesOf(cyclic)[0]).toMatch(/^(\w) > .* > \1$/);
  });

  it('names a dependency imported but not declared, and one declared but not imported', () => {
    const declared: ImportGraph = new Map([
      ['a', new Set(['b', 'd'])],
      ['b', new Set<string>()],
      ['c', new Set<string>()],
    ]);
    expect(declarationMismatches(sample, declared)).toEqual([
      'a declares @directory/d but its sources do not import it',
      'b imports @directory/c without declaring it in its package.json',
    ]);
    expect(declarationMismatches(sample, sample)).toEqual([]);
  });
});

describe('file graph analysis', () => {
  it('reads every relative import of a module: imports, type imports, re-exports, dynamic imports', () => {
    const source = [
      "import { z } from 'zod';",
      "import type { Doctor } from '../doctor.js';",
      'import {',
      '  encodeCursor,',
      "} from './cursor.js';",
      "export { toDoctorPage } from './search-query.js';",
      "const later = await import('./later.js');",
      "import './side-effect.js';",
      "import { Client } from '@elastic/elasticsearch';",
    ].join('\n');
    expect(relativeImportsOf(source)).toEqual([
      '../doctor.js',
      './cursor.js',
      './search-query.js',
      './later.js',
      './side-effect.js',
    ]);
  });

  it('names the path of a cycle between files, and finds none in a chain', () => {
    const chain: ImportGraph = new Map([
      ['src/page.ts', new Set(['src/params.ts'])],
      ['src/params.ts', new Set(['src/query.ts'])],
      ['src/query.ts', new Set<string>()],
    ]);
    expect(cyclesOf(chain)).toEqual([]);
    const cyclic: ImportGraph = new Map([...chain, ['src/query.ts', new Set(['src/page.ts'])]]);
    expect(cyclesOf(cyclic)).toEqual(['src/page.ts > src/params.ts > src/query.ts > src/page.ts']);
  });
});
