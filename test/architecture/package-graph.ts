import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * An import graph: what each node (a package, or a source file) imports. The package graph is read from
 * the source: which `@directory/*` packages each workspace's sources import. Tests are left out (a test
 * may reach across layers to set things up).
 */
export type ImportGraph = ReadonlyMap<string, ReadonlySet<string>>;

const DIRECTORY_IMPORT = /(?:from|import)\s*(?:\(\s*)?'@directory\/([a-z-]+)/g;
const DIRECTORY_SCOPE = '@directory/';

/**
 * Where a workspace sits, by the first folder of its path: a library (`packages/`), an app (`services/`:
 * the processes and the `directory` command), the benchmarks (`bench/`) or a tool of the repository
 * (`infra/`: the build, the demo, the OpenAPI lint).
 */
export type WorkspaceFolder = 'packages' | 'services' | 'bench' | 'infra';
const WORKSPACE_FOLDERS: readonly WorkspaceFolder[] = ['packages', 'services', 'bench', 'infra'];

export type Workspace = {
  name: string;
  folder: WorkspaceFolder;
  root: string;
  /** Its `src/` when it has one; else its own folder (the benchmarks and the tools keep their files at the top). */
  sources: string;
  dependencies: string[];
};

/**
 * The workspace folders a `workspaces` list names, as npm expands them: `folder/*` is every folder
 * directly under `folder` that holds a package.json; a plain path is that folder.
 */
export function expandWorkspaces(root: string, patterns: readonly string[]): string[] {
  return patterns.flatMap((pattern) => {
    const parent = pattern.endsWith('/*') ? pattern.slice(0, -2) : undefined;
    if (parent === undefined) {
      if (pattern.includes('*')) {
        throw new Error(`workspace pattern ${pattern}: only "folder/*" and plain folders are expanded here`);
      }
      return [pattern.replace(/\/$/, '')];
    }
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(root, parent, entry.name, 'package.json')))
      .map((entry) => `${parent}/${entry.name}`);
  });
}

/** The `workspaces` list of the root package.json. */
export function workspacePatterns(root: string): string[] {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    workspaces: unknown;
  };
  if (!Array.isArray(workspaces) || !workspaces.every((pattern) => typeof pattern === 'string')) {
    throw new Error('the root package.json must list its workspaces as an array of paths');
  }
  return workspaces;
}

/**
 * Every workspace of the root package.json by its short name (`@directory/` left off), with the
 * `@directory/*` dependencies it declares.
 */
export function readWorkspaces(root: string): Workspace[] {
  return expandWorkspaces(root, workspacePatterns(root)).map((path) => {
    const folder = WORKSPACE_FOLDERS.find((candidate) => path.split('/')[0] === candidate);
    if (folder === undefined) {
      throw new Error(`workspace ${path}: not under ${WORKSPACE_FOLDERS.join(', ')} (say where it sits)`);
    }
    const workspaceRoot = join(root, path);
    const { name, dependencies = {} } = JSON.parse(
      readFileSync(join(workspaceRoot, 'package.json'), 'utf8'),
    ) as {
      name: string;
      dependencies?: Record<string, string>;
    };
    const src = join(workspaceRoot, 'src');
    return {
      name: name.replace(DIRECTORY_SCOPE, ''),
      folder,
      root: workspaceRoot,
      sources: existsSync(src) ? src : workspaceRoot,
      dependencies: Object.keys(dependencies)
        .filter((dependency) => dependency.startsWith(DIRECTORY_SCOPE))
        .map((dependency) => dependency.replace(DIRECTORY_SCOPE, '')),
    };
  });
}

export function readPackageGraph(root: string): ImportGraph {
  const graph = new Map<string, Set<string>>();
  for (const workspace of readWorkspaces(root)) {
    const imports = new Set<string>();
    for (const file of sourceFiles(workspace.sources)) {
      for (const match of readFileSync(file, 'utf8').matchAll(DIRECTORY_IMPORT)) {
        const imported = match[1];
        if (imported !== undefined && imported !== workspace.name) imports.add(imported);
      }
    }
    graph.set(workspace.name, imports);
  }
  return graph;
}

/** The graph as the workspaces' package.json files state it: each one's declared `@directory/*` dependencies. */
export function readDeclaredGraph(root: string): ImportGraph {
  return new Map(readWorkspaces(root).map((workspace) => [workspace.name, new Set(workspace.dependencies)]));
}

/**
 * Where the imports of each workspace's sources and its declared dependencies disagree, one sentence
 * each: an import not declared, or a declaration nothing imports.
 */
export function declarationMismatches(imported: ImportGraph, declared: ImportGraph): string[] {
  const names = [...new Set([...imported.keys(), ...declared.keys()])].sort();
  return names.flatMap((name) => {
    const imports = imported.get(name) ?? new Set<string>();
    const declarations = declared.get(name) ?? new Set<string>();
    return [
      ...[...imports]
        .filter((dependency) => !declarations.has(dependency))
        .map(
          (dependency) => `${name} imports @directory/${dependency} without declaring it in its package.json`,
        ),
      ...[...declarations]
        .filter((dependency) => !imports.has(dependency))
        .map((dependency) => `${name} declares @directory/${dependency} but its sources do not import it`),
    ];
  });
}

/** The `.ts` files under `folder`, installed packages (`node_modules`) left out. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    if (entry === 'node_modules') return [];
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every package reachable from `start` (not including it). */
export function dependenciesOf(graph: ImportGraph, start: string): Set<string> {
  const seen = new Set<string>();
  const pending = [...(graph.get(start) ?? [])];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(graph.get(next) ?? []));
  }
  return seen;
}

/** Import cycles, each as the path that closes it (`a > b > a`). */
export function cyclesOf(graph: ImportGraph): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (name: string, path: string[]): void => {
    if (path.includes(name)) {
      cycles.push([...path.slice(path.indexOf(name)), name].join(' > '));
      return;
    }
    if (done.has(name)) return;
    for (const imported of graph.get(name) ?? []) visit(imported, [...path, name]);
    done.add(name);
  };
  for (const name of graph.keys()) visit(name, []);
  return cycles;
}

/** Layer of each package: 0 imports nothing of ours, n imports something of layer n-1 at most. Assumes no cycle. */
export function layersOf(graph: ImportGraph): Map<string, number> {
  const layers = new Map<string, number>();
  const layerOf = (name: string): number => {
    const known = layers.get(name);
    if (known !== undefined) return known;
    const imported = [...(graph.get(name) ?? [])];
    const layer = imported.length === 0 ? 0 : Math.max(...imported.map(layerOf)) + 1;
    layers.set(name, layer);
    return layer;
  };
  for (const name of graph.keys()) layerOf(name);
  return layers;
}
