// Run by `bench:ingest` as a process of its own, so the steps are timed on a fresh heap as the producer
// and the worker run them, not on the benchmark's (which holds every document of its phases).
// Prints one JSON line: the steps of `measureRequiredSteps`.
import { parseArgs } from 'node:util';
import { loadConfig } from '@directory/config';
import { generateEvents } from '@directory/sample-data';
import { measureRequiredSteps } from './required-steps.js';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '50000' }, seed: { type: 'string', default: '1' } },
});
const config = loadConfig();
const lines: string[] = [];
for (const event of generateEvents({ count: Number(values.count), seed: Number(values.seed) }))
  lines.push(JSON.stringify(event));
const steps = measureRequiredSteps(lines, {
  batchSize: config.INGEST_BATCH_SIZE,
  siteOrigin: config.SITE_ORIGIN,
});
console.log(JSON.stringify(steps));
