import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The workspace's package import graph, read from the source: which `@directory/*` packages each package's
 * `src/` imports. Tests and benchmarks are left out (a test may reach across layers to set things up).
 */
export type PackageGraph = ReadonlyMap<string, ReadonlySet<string>>;

const WORKSPACE_FOLDERS = ['packages', 'services'];
const DIRECTORY_IMPORT = /(?:from|import)\s*(?:\(\s*)?'@directory\/([a-z-]+)/g;

export function readPackageGraph(root: string): PackageGraph {
  const graph = new Map<string, Set<string>>();
  for (const folder of WORKSPACE_FOLDERS) {
    for (const entry of readdirSync(join(root, folder))) {
      const packageRoot = join(root, folder, entry);
      const { name } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
        name: string;
      };
      const self = name.replace('@directory/', '');
      const imports = new Set<string>();
      for (const file of sourceFiles(join(packageRoot, 'src'))) {
        for (const match of readFileSync(file, 'utf8').matchAll(DIRECTORY_IMPORT)) {
          const imported = match[1];
          if (imported !== undefined && imported !== self) imports.add(imported);
        }
      }
      graph.set(self, imports);
    }
  }
  return graph;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every package reachable from `start` (not including it). */
export function dependenciesOf(graph: PackageGraph, start: string): Set<string> {
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
export function cyclesOf(graph: PackageGraph): string[] {
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
export function layersOf(graph: PackageGraph): Map<string, number> {
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
