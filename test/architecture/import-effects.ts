import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { relativeImportsOf, resolveSource } from './file-graph.js';
import { readWorkspaces } from './package-graph.js';

/** What a module does when it is imported, one line each (`line 12: program.parse(argv)`). */
export type ImportTimeEffects = {
  /** Top-level statements that are not declarations: a call, an assignment, an `if`, a loop, a `try`. */
  statements: string[];
  /**
   * The steps of running a command, outside any function: an `await`, reading the configuration
   * (`loadConfigOrExit`), parsing arguments (a commander `parse` / `parseAsync`) or `process.exit`.
   */
  commandSteps: string[];
};

/**
 * Declarations whose values are built at once (`const program = new Command()`, a regular expression, a
 * schema) are not effects: they start nothing. Inside a function nothing runs until it is called.
 */
export function importTimeEffects(source: string): ImportTimeEffects {
  const file = ts.createSourceFile('module.ts', source, ts.ScriptTarget.Latest, true);
  const effects: ImportTimeEffects = { statements: [], commandSteps: [] };
  const describe = (node: ts.Node): string => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    const text = node.getText(file).split('\n')[0] ?? '';
    return `line ${line + 1}: ${text.length > 80 ? `${text.slice(0, 80)}…` : text}`;
  };
  const searchOutsideFunctions = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isAwaitExpression(node) || (ts.isCallExpression(node) && isCommandStep(node.expression))) {
      effects.commandSteps.push(describe(node));
      return;
    }
    ts.forEachChild(node, searchOutsideFunctions);
  };
  for (const statement of file.statements) {
    if (!isDeclaration(statement)) effects.statements.push(describe(statement));
    searchOutsideFunctions(statement);
  }
  return effects;
}

function isDeclaration(statement: ts.Statement): boolean {
  return (
    ts.isImportDeclaration(statement) ||
    ts.isExportDeclaration(statement) ||
    ts.isExportAssignment(statement) ||
    ts.isFunctionDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isModuleDeclaration(statement) ||
    ts.isVariableStatement(statement) ||
    ts.isEmptyStatement(statement)
  );
}

/** `loadConfigOrExit()`, `process.exit()`, `program.parse()` / `parseAsync()` (not `JSON.parse`, `Date.parse`). */
function isCommandStep(callee: ts.Expression): boolean {
  if (ts.isIdentifier(callee)) return callee.text === 'loadConfigOrExit';
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const receiver = callee.expression.getText();
  const method = callee.name.text;
  if (receiver === 'process') return method === 'exit';
  return (method === 'parse' || method === 'parseAsync') && receiver !== 'JSON' && receiver !== 'Date';
}

const WORKSPACE_IMPORT = /(?:from|import)\s*(?:\(\s*)?['"]@directory\/([a-z-]+)(\/[a-z-]+)?['"]/g;

/**
 * The source files `file` imports by `@directory/*` specifiers, through each workspace's package.json
 * `exports` (absolute paths).
 */
export function workspaceImportsOf(root: string, file: string): string[] {
  const exportsOf = workspaceExports(root);
  return [...readFileSync(file, 'utf8').matchAll(WORKSPACE_IMPORT)].flatMap(([, name, subpath]) => {
    const workspace = exportsOf.get(name ?? '');
    const target = workspace?.exports[`.${subpath ?? ''}`];
    return workspace && target !== undefined && existsSync(join(workspace.root, target))
      ? [join(workspace.root, target)]
      : [];
  });
}

function workspaceExports(root: string): Map<string, { root: string; exports: Record<string, string> }> {
  return new Map(
    readWorkspaces(root).map((workspace) => {
      const manifest = JSON.parse(readFileSync(join(workspace.root, 'package.json'), 'utf8')) as {
        exports?: Record<string, string>;
      };
      return [workspace.name, { root: workspace.root, exports: manifest.exports ?? {} }] as const;
    }),
  );
}

/**
 * Every source file of the workspaces that `entry` (a path from `root`) reaches through its imports,
 * relative ones and `@directory/*` ones, `entry` included; paths from `root`.
 */
export function reachableSources(root: string, entry: string): string[] {
  const seen = new Set<string>();
  const pending = [join(root, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of relativeImportsOf(readFileSync(file, 'utf8'))) {
      const target = resolveSource(dirname(file), specifier);
      if (target !== undefined) pending.push(target);
    }
    pending.push(...workspaceImportsOf(root, file));
  }
  return [...seen].map((file) => relative(root, file)).sort();
}
