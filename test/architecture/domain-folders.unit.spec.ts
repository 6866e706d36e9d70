import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readFileGraph, resolveSource } from './file-graph.js';
import {
  cyclesOf,
  dependenciesOf,
  readPackageGraph,
  readWorkspaces,
  sourceFiles,
  type ImportGraph,
} from './package-graph.js';

// The pure core (packages/domain) is split along its seams, one folder each. This spec holds the folders
// to a declared layering and keeps the apps that have no business with search away from the search model.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOMAIN_SOURCE = 'packages/domain/src';
/** The package's one public entry: it re-exports from every folder, and no folder imports it. */
const ENTRY = '.';

/**
 * Which folders each folder's files may import (its own files aside), lowest first. A folder not in
 * this table fails the spec until it is placed here; the table itself must stay free of cycles.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  // Result, assertNever, text folding and display, the bounded memo, signed tokens, the JSON writer.
  shared: [],
  // API key format and the key lifecycle (expiry, grace, usage days): what the console needs.
  keys: [],
  // Event schemas, the fast path, patient attributes, the place state and `evolve`.
  events: ['shared'],
  // Weekday labels, time zones, minutes of the week: read from a place's published hours.
  'opening-hours': ['events', 'shared'],
  // The Doctor (the allowlist), its extras, the fold to a public record, profile URLs, the vocabulary.
  places: ['opening-hours', 'events', 'shared'],
  // Query parameters shared by every read: page bounds, instants, country lists, the record's shape.
  requests: ['places', 'keys', 'events', 'shared'],
  // The search read model: filter table, document + mapping, queries, cursors, pages, lists, suggest.
  search: ['requests', 'places', 'opening-hours', 'events', 'shared'],
  // The changes feed and exports: cursors, parameters, pages.
  changes: ['requests', 'places', 'keys', 'events', 'shared'],
};

/**
 * What a workspace's own files may not reach in the core. Every consumer imports `@directory/domain`
 * (package.json exports only `.`), so a rule about a folder is checked on the names: each name the
 * workspace's src/ imports from `@directory/domain` is traced to the file the entry re-exports it from,
 * and every core file that file reaches by relative imports must lie outside the forbidden folder. A
 * namespace, default or dynamic import of the core would hide its names, so it fails too.
 *
 * The rule holds the workspace's own imports, not those of every package below it: the console reaches
 * the event store (through webhooks), whose places table stores the projected search document and so
 * names its type. The package graph spec keeps the console free of the search and search-index packages.
 */
const MAY_NOT_REACH: ReadonlyArray<{ workspace: string; folder: string; why: string }> = [
  {
    workspace: 'console',
    folder: 'search',
    why: 'the console manages accounts, keys and webhooks; searching is the API and MCP servers’ business',
  },
];

const fileGraph = readFileGraph(ROOT);

/** The folder graph of a package's `src/`: each folder (relative to `src`) → the other folders its files import. */
function folderGraphOf(files: ImportGraph, source: string): ImportGraph {
  const folderOf = (file: string) => relative(source, dirname(file)) || ENTRY;
  const inSource = (file: string) => !relative(source, file).startsWith('..');
  const graph = new Map<string, Set<string>>();
  for (const [file, imports] of files) {
    if (!inSource(file)) continue;
    const folder = folderOf(file);
    const targets = graph.get(folder) ?? new Set<string>();
    for (const target of imports)
      if (inSource(target) && folderOf(target) !== folder) targets.add(folderOf(target));
    graph.set(folder, targets);
  }
  return graph;
}

/** Each name an entry module re-exports (`export { a, b as c, type D } from './x.js'`) → the file it comes from. */
function reexportsOf(entrySource: string, resolve: (specifier: string) => string): Map<string, string> {
  const names = new Map<string, string>();
  for (const [, list = '', specifier = ''] of entrySource.matchAll(
    /export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g,
  )) {
    for (const name of namesIn(list, 'exported')) names.set(name, resolve(specifier));
  }
  return names;
}

/**
 * The names a module imports (or re-exports) from `packageName`; `'*'` when it takes the whole module
 * (a namespace, default or dynamic import), whose names cannot be read.
 */
function namesImportedFrom(source: string, packageName: string): string[] {
  const quoted = `'${packageName}'`;
  const names: string[] = [];
  // Statements end with a semicolon (the formatter sees to it); a statement's own text starts at its
  // last line that opens with `import` or `export` (comments may come before it).
  for (const statement of source.split(';')) {
    const text = statement.trimEnd();
    if (!text.endsWith(`from ${quoted}`)) continue;
    const lines = text.split('\n');
    const first = lines.findLastIndex((line) => /^\s*(?:import|export)\b/.test(line));
    const clause = lines.slice(first).join(' ').trim().slice('import'.length, -`from ${quoted}`.length);
    const open = clause.indexOf('{');
    const close = clause.indexOf('}');
    const inside = open === -1 || close < open ? undefined : clause.slice(open + 1, close);
    const outside = (inside === undefined ? clause : clause.slice(0, open) + clause.slice(close + 1))
      .replace('type ', '')
      .replaceAll(',', '')
      .trim();
    if (inside !== undefined) names.push(...namesIn(inside, 'imported'));
    if (outside !== '' || inside === undefined) names.push('*');
  }
  if (source.includes(`import(${quoted})`)) names.push('*');
  return names;
}

// `a`, `type a`, `a as b`: the name as the source module has it (`imported`) or as it is re-exported.
function namesIn(list: string, side: 'imported' | 'exported'): string[] {
  return list
    .split(',')
    .map((entry) => entry.replaceAll(/\s+/g, ' ').trim())
    .map((entry) => (entry.startsWith('type ') ? entry.slice('type '.length) : entry))
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [own = entry, alias] = entry.split(' as ');
      return side === 'exported' ? (alias ?? own) : own;
    });
}

/** Every file `start` reaches by relative imports, itself included. */
function reachedFrom(files: ImportGraph, start: string): Set<string> {
  return new Set([start, ...dependenciesOf(files, start)]);
}

describe('the folders of the pure core', () => {
  const folders = folderGraphOf(fileGraph, DOMAIN_SOURCE);

  it('import no folder that imports them back', () => {
    expect(folders.size).toBeGreaterThanOrEqual(Object.keys(MAY_IMPORT).length);
    expect(cyclesOf(folders)).toEqual([]);
  });

  it('each import only the folders the layering allows, and none imports the entry', () => {
    expect(
      cyclesOf(new Map(Object.entries(MAY_IMPORT).map(([name, allowed]) => [name, new Set(allowed)]))),
    ).toEqual([]);
    for (const [folder, imports] of folders) {
      if (folder === ENTRY) continue;
      const allowed = MAY_IMPORT[folder];
      expect(allowed, `${DOMAIN_SOURCE}/${folder} is not in the layering table of this spec`).toBeDefined();
      const forbidden = [...imports].filter((target) => !(allowed ?? []).includes(target));
      expect(forbidden, `${DOMAIN_SOURCE}/${folder} imports what it may not`).toEqual([]);
    }
  });
});

describe('the reach of each workspace into the core', () => {
  const entryFile = join(DOMAIN_SOURCE, 'index.ts');
  const entrySource = readFileSync(join(ROOT, entryFile), 'utf8');
  const exported = reexportsOf(entrySource, (specifier) => {
    const file = resolveSource(join(ROOT, DOMAIN_SOURCE), specifier);
    if (file === undefined)
      throw new Error(`${entryFile} re-exports from ${specifier}, which is not a source file`);
    return relative(ROOT, file);
  });
  const packages = readPackageGraph(ROOT);
  const workspaces = readWorkspaces(ROOT);

  it('reads every name of the entry, which only re-exports by name', () => {
    expect(exported.get('buildSearchRequest')).toBe(`${DOMAIN_SOURCE}/search/search-query.ts`);
    expect(exported.get('keyStateAt')).toBe(`${DOMAIN_SOURCE}/keys/key-lifecycle.ts`);
    expect(entrySource).not.toMatch(/export\s+\*/);
  });

  for (const { workspace, folder, why } of MAY_NOT_REACH) {
    it(`keeps ${workspace} away from the core's ${folder}/: ${why}`, () => {
      const root = workspaces.find((candidate) => candidate.name === workspace)?.root;
      if (root === undefined) throw new Error(`no workspace ${workspace}`);
      expect(packages.get(workspace)?.has('domain')).toBe(true);
      const forbidden = join(DOMAIN_SOURCE, folder);
      const offences: string[] = [];
      for (const file of sourceFiles(join(root, 'src'))) {
        const where = relative(ROOT, file);
        for (const imported of namesImportedFrom(readFileSync(file, 'utf8'), '@directory/domain')) {
          const from = exported.get(imported);
          if (from === undefined) {
            offences.push(`${where} imports ${imported} from the core, which the entry does not name`);
            continue;
          }
          const reached = [...reachedFrom(fileGraph, from)].filter((target) =>
            target.startsWith(`${forbidden}/`),
          );
          if (reached.length > 0)
            offences.push(`${where} imports ${imported}, which reaches ${reached.join(', ')}`);
        }
      }
      expect(offences).toEqual([]);
    });
  }

  it('sees a search name imported by a workspace that may reach search', () => {
    const root = workspaces.find((candidate) => candidate.name === 'api')?.root ?? '';
    const names = sourceFiles(join(root, 'src')).flatMap((file) =>
      namesImportedFrom(readFileSync(file, 'utf8'), '@directory/domain'),
    );
    expect(names.some((name) => exported.get(name)?.startsWith(`${DOMAIN_SOURCE}/search/`))).toBe(true);
  });
});

describe('folder graph analysis', () => {
  it('groups files by folder, drops imports inside a folder and outside the source', () => {
    const files: ImportGraph = new Map([
      ['pkg/src/index.ts', new Set(['pkg/src/search/query.ts'])],
      ['pkg/src/search/query.ts', new Set(['pkg/src/search/cursor.ts', 'pkg/src/places/doctor.ts'])],
      ['pkg/src/search/cursor.ts', new Set<string>()],
      ['pkg/src/places/doctor.ts', new Set(['other/src/x.ts'])],
      ['other/src/x.ts', new Set<string>()],
    ]);
    const folders = folderGraphOf(files, 'pkg/src');
    expect(Object.fromEntries([...folders].map(([name, imports]) => [name, [...imports]]))).toEqual({
      '.': ['search'],
      search: ['places'],
      places: [],
    });
  });

  it('reads the names an entry re-exports and a module imports', () => {
    const entry = [
      "export { a, type B, c as d } from './x/one.js';",
      "export type {\n  E,\n  F,\n} from './two.js';",
    ].join('\n');
    expect(Object.fromEntries(reexportsOf(entry, (specifier) => specifier))).toEqual({
      a: './x/one.js',
      B: './x/one.js',
      d: './x/one.js',
      E: './two.js',
      F: './two.js',
    });
    const module = [
      "import { a, type B } from '@directory/domain';",
      "import type {\n  C,\n  D as Dee,\n} from '@directory/domain';",
      "import { other } from '@directory/keys';",
      "export { e } from '@directory/domain';",
    ].join('\n');
    expect(namesImportedFrom(module, '@directory/domain')).toEqual(['a', 'B', 'C', 'D', 'e']);
    expect(namesImportedFrom("import * as core from '@directory/domain';", '@directory/domain')).toEqual([
      '*',
    ]);
    expect(namesImportedFrom("const core = await import('@directory/domain');", '@directory/domain')).toEqual(
      ['*'],
    );
  });
});
