// `npm run test:durations [-- REPORT]`: writes test/file-durations.json, each spec file's seconds in a full
// run, from vitest's JSON report (test-results/vitest.json, which `.ci/run` writes; one from another clone
// works too, its paths taken relative to the folder that holds its test-results/). The test sequencer
// starts the longest files first by these times; commit the file after a run that added or slowed files.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { durationsFromReport } from '../packages/testing/src/file-order.ts';

const reportPath = resolve(process.argv[2] ?? 'test-results/vitest.json');
const reportRoot = dirname(dirname(reportPath));
const durations = durationsFromReport(JSON.parse(readFileSync(reportPath, 'utf8')), reportRoot);
const target = resolve(import.meta.dirname, '..', 'test/file-durations.json');
writeFileSync(target, `${JSON.stringify(durations, null, 2)}\n`);
console.log(`test/file-durations.json: ${Object.keys(durations).length} files from ${reportPath}`);
