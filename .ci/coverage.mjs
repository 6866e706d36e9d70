// Prints the coverage of each workspace (lines and branches) from vitest's json-summary report, and the
// whole: what a merge or removal of scenarios must keep. Prints nothing but a note when there is no report.
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';

const [summaryPath = 'test-results/coverage/coverage-summary.json'] = process.argv.slice(2);
let summary;
try {
  summary = JSON.parse(readFileSync(summaryPath, 'utf8'));
} catch {
  console.log(`[coverage] no report at ${summaryPath}`);
  process.exit(0);
}

/** `packages/webhooks/src/x.ts` → `packages/webhooks`. */
const workspaceOf = (file) => relative(process.cwd(), file).split(sep).slice(0, 2).join('/');
const workspaces = new Map();
for (const [file, totals] of Object.entries(summary)) {
  if (file === 'total') continue;
  const name = workspaceOf(file);
  const sum = workspaces.get(name) ?? { lines: [0, 0], branches: [0, 0] };
  sum.lines[0] += totals.lines.covered;
  sum.lines[1] += totals.lines.total;
  sum.branches[0] += totals.branches.covered;
  sum.branches[1] += totals.branches.total;
  workspaces.set(name, sum);
}
const percent = ([covered, total]) =>
  total === 0 ? '   -  ' : `${((100 * covered) / total).toFixed(1).padStart(5)}%`;
console.log('[coverage] workspace                       lines   branches');
for (const [name, sum] of [...workspaces].sort(([a], [b]) => a.localeCompare(b)))
  console.log(`[coverage] ${name.padEnd(30)} ${percent(sum.lines)}  ${percent(sum.branches)}`);
const total = summary.total;
console.log(
  `[coverage] ${'all'.padEnd(30)} ${percent([total.lines.covered, total.lines.total])}  ${percent([total.branches.covered, total.branches.total])}`,
);
