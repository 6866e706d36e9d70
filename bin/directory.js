#!/usr/bin/env node
// The `directory` command (docs/deployment.md): runs the compiled build that `npm run build` writes.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const build = new URL('../dist/directory.js', import.meta.url);
if (!existsSync(build)) {
  process.stderr.write('directory: dist/directory.js is missing: run npm run build first\n');
  process.exit(3);
}
// Stack traces name the TypeScript sources (dist/directory.js.map).
process.setSourceMapsEnabled(true);
await import(build.href);
