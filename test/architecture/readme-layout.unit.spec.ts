import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expandWorkspaces, workspacePatterns } from './package-graph.js';

/**
 * The README's Layout table must describe the workspaces the root package.json declares, one row each,
 * and name only paths that exist: a workspace added, moved or removed without its row fails here by
 * name. The workspace list is read when the spec runs, so it follows whatever the package.json says.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The first cell of every body row of the first table under `heading`, backticks and a trailing `/` removed. */
function tablePaths(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start === -1) throw new Error(`heading not found: ${heading}`);
  const rows: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (line.startsWith('|')) rows.push(line);
    else if (rows.length > 0) break;
  }
  // Skip the header row and the |---| separator.
  return rows.slice(2).map((row) => (row.split('|')[1] ?? '').trim().replaceAll('`', '').replace(/\/$/, ''));
}

describe("the README's Layout table", () => {
  const workspaces = expandWorkspaces(ROOT, workspacePatterns(ROOT));
  const paths = tablePaths(readFileSync(join(ROOT, 'README.md'), 'utf8'), '## Layout');

  it('has a row of its own for every workspace of the root package.json', () => {
    expect(workspaces.length).toBeGreaterThan(0);
    const missing = workspaces.filter((workspace) => !paths.includes(workspace));
    expect(missing, "workspaces without a row in the README's Layout table").toEqual([]);
  });

  it('names only paths that exist, one row each, none of them a glob', () => {
    expect(paths.length).toBeGreaterThan(0);
    const absent = paths.filter((path) => path.includes('*') || !existsSync(join(ROOT, path)));
    expect(
      absent,
      "rows of the README's Layout table naming no existing path (or a glob: describe each workspace)",
    ).toEqual([]);
    expect(
      paths.filter((path, index) => paths.indexOf(path) !== index),
      'paths listed twice',
    ).toEqual([]);
  });

  it('expands "folder/*" to the folders holding a package.json, and takes a plain path as it is', () => {
    const expanded = expandWorkspaces(ROOT, ['services/*', 'bin/']);
    expect(expanded).toContain('services/api');
    expect(expanded).toContain('bin');
    expect(expanded.every((path) => path === 'bin' || existsSync(join(ROOT, path, 'package.json')))).toBe(
      true,
    );
    expect(() => expandWorkspaces(ROOT, ['packages/**'])).toThrow(/only "folder\/\*"/);
  });
});
