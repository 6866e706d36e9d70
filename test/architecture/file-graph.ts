import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { readWorkspaces, sourceFiles, type ImportGraph } from './package-graph.js';

/**
 * The file import graph of every workspace's sources: which source files each file imports by a relative
 * path (type imports and re-exports included), keyed by the path from the repository root. A cycle here
 * means two modules can only be understood together, and one of them may be half-initialized when the
 * other runs; `cyclesOf` finds them as it finds package cycles.
 */
export function readFileGraph(root: string): ImportGraph {
  const graph = new Map<string, Set<string>>();
  for (const workspace of readWorkspaces(root)) {
    for (const file of sourceFiles(workspace.sources)) {
      const imports = relativeImportsOf(readFileSync(file, 'utf8'))
        .map((specifier) => resolveSource(dirname(file), specifier))
        .filter((target): target is string => target !== undefined)
        .map((target) => relative(root, target));
      graph.set(relative(root, file), new Set(imports));
    }
  }
  return graph;
}

// `from './x.js'`, `import './x.js'`, `import('./x.js')`: whatever the statement (import, import type,
// export ... from), the specifier follows one of these words.
const RELATIVE_IMPORT = /(?:from|import)\s*(?:\(\s*)?['"](\.{1,2}\/[^'"\n]+)['"]/g;

/** The relative specifiers a module's text imports or re-exports from, in order of appearance. */
export function relativeImportsOf(source: string): string[] {
  return [...source.matchAll(RELATIVE_IMPORT)].flatMap((match) => (match[1] === undefined ? [] : [match[1]]));
}

/** The source file a relative specifier names (`./x.js` is `./x.ts` in the source), if there is one. */
export function resolveSource(fromFolder: string, specifier: string): string | undefined {
  const target = resolve(fromFolder, specifier);
  const candidates = [target.replace(/\.js$/, '.ts'), `${target}.ts`, join(target, 'index.ts')];
  return candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}
