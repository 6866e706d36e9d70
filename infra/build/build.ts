// `npm run build`: the production bundle dist/directory.js (+ .map, + .meta.json), run by bin/directory.js
// and the image (docs/development.md, "Build"). Type checking stays in `npm run check`.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundle, ENTRY } from './bundle.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const started = performance.now();
rmSync(`${root}dist`, { recursive: true, force: true });
try {
  const { outfile, bytes } = await bundle(root, ENTRY, 'dist/directory.js');
  const seconds = (performance.now() - started) / 1000;
  console.log(`${outfile}: ${(bytes / 1024 / 1024).toFixed(2)} MB in ${seconds.toFixed(1)} s`);
} catch (error) {
  console.error(`build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
