import { fileURLToPath } from 'node:url';
import { readFileGraph } from './file-graph.js';
import {
  cyclesOf,
  declarationMismatches,
  layersOf,
  readDeclaredGraph,
  readPackageGraph,
} from './package-graph.js';

// `npm run deps`: the package import graph, one line per package by layer, and its totals; or what breaks
// the rules (a package or file cycle, an import not declared in package.json or a declaration not used).
const root = fileURLToPath(new URL('../../', import.meta.url));
const graph = readPackageGraph(root);
const files = readFileGraph(root);
const problems = [
  ...cyclesOf(graph).map((cycle) => `package cycle: ${cycle}`),
  ...cyclesOf(files).map((cycle) => `file cycle: ${cycle}`),
  ...declarationMismatches(graph, readDeclaredGraph(root)),
];
if (problems.length > 0) {
  for (const problem of problems) console.log(problem);
  process.exit(1);
}
const layers = layersOf(graph);
const edges = [...graph.values()].reduce((sum, imports) => sum + imports.size, 0);
for (const [name, layer] of [...layers].sort(([a, x], [b, y]) => x - y || a.localeCompare(b))) {
  console.log(`${layer} ${name.padEnd(16)} -> ${[...(graph.get(name) ?? [])].sort().join(' ')}`);
}
console.log(
  `${graph.size} packages, ${edges} imports between them, ${Math.max(...layers.values()) + 1} layers, ` +
    `${files.size} source files, 0 cycles`,
);
