// `npm run lint:openapi`: writes the API's OpenAPI document (as /openapi.json serves it, built without
// servers) to a temporary file and lints it with Redocly's `recommended` rules (redocly.yaml): any error
// or warning fails the run. `--out <file>` keeps the document there instead.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildOpenApiDocument } from './document.js';

const outIndex = process.argv.indexOf('--out');
const keep = outIndex === -1 ? undefined : process.argv[outIndex + 1];
const folder = keep === undefined ? mkdtempSync(join(tmpdir(), 'openapi-lint-')) : undefined;
const file = keep === undefined ? join(folder ?? tmpdir(), 'openapi.json') : resolve(keep);

writeFileSync(file, `${JSON.stringify(await buildOpenApiDocument(), null, 2)}\n`);
const root = resolve(import.meta.dirname, '../..');
const redocly = (format: string) =>
  spawnSync('npx', ['redocly', 'lint', file, '--config', join(root, 'redocly.yaml'), '--format', format], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });

// Redocly exits 0 on warnings: the JSON report's totals decide, and the readable report is shown on failure.
const report = redocly('json');
const totals = (JSON.parse(report.stdout || '{}') as { totals?: { errors: number; warnings: number } })
  .totals;
const clean = report.status === 0 && totals !== undefined && totals.errors === 0 && totals.warnings === 0;
if (clean) console.log(`OpenAPI document lints clean (Redocly recommended): ${file}`);
else {
  const readable = redocly('stylish');
  process.stderr.write(`${readable.stdout}${readable.stderr}`);
  if (totals === undefined) process.stderr.write(report.stderr);
}
if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
process.exit(clean ? 0 : 1);
