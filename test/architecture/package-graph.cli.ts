import { fileURLToPath } from 'node:url';
import { cyclesOf, layersOf, readPackageGraph } from './package-graph.js';

// `npm run deps`: the package import graph, one line per package by layer, and its totals.
const graph = readPackageGraph(fileURLToPath(new URL('../../', import.meta.url)));
const cycles = cyclesOf(graph);
if (cycles.length > 0) {
  console.log(`cycles: ${cycles.join('; ')}`);
  process.exit(1);
}
const layers = layersOf(graph);
const edges = [...graph.values()].reduce((sum, imports) => sum + imports.size, 0);
for (const [name, layer] of [...layers].sort(([a, x], [b, y]) => x - y || a.localeCompare(b))) {
  console.log(`${layer} ${name.padEnd(16)} -> ${[...(graph.get(name) ?? [])].sort().join(' ')}`);
}
console.log(
  `${graph.size} packages, ${edges} imports between them, ${Math.max(...layers.values()) + 1} layers, 0 cycles`,
);
