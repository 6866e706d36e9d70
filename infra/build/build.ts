// `npm run build`: the production bundle dist/directory.js (+ dist/chunks/, source maps and
// dist/directory.meta.json), run by bin/directory.js and the image (docs/development.md, "Build").
// Type checking stays in `npm run check`.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundle, ENTRY } from './bundle.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const started = performance.now();
rmSync(`${root}dist`, { recursive: true, force: true });
try {
  const { entry, entryBytes, totalBytes } = await bundle(root, ENTRY, 'dist');
  const seconds = (performance.now() - started) / 1000;
  const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  console.log(
    `${entry}: ${megabytes(entryBytes)}, ${megabytes(totalBytes)} with its chunks, in ${seconds.toFixed(1)} s`,
  );
} catch (error) {
  console.error(`build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
