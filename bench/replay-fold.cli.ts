// Run by `bench:reindex --replay` as a process of its own (a fresh heap, as the reindex process has):
// times the replay's fold alone on the served places the bench seeds its store from, before cloning.
// Prints one JSON line: the places folded and their CPU seconds.
import { parseArgs } from 'node:util';
import { loadConfig } from '@directory/config';
import { generateEvents } from '@directory/sample-data';
import { projectRawEvents } from '@directory/testing';
import { measureReplayFold } from './required-steps.js';

const { values } = parseArgs({
  options: { count: { type: 'string' }, seed: { type: 'string' } },
});
if (values.count === undefined || values.seed === undefined)
  throw new Error('--count and --seed are required');
const config = loadConfig();
const expected = projectRawEvents(
  generateEvents({ count: Number(values.count), seed: Number(values.seed) }),
  config.SITE_ORIGIN,
);
const served = expected.validEvents.filter(
  (event) => expected.rows.get(event.placeId)?.document.served === true,
);
const cpuSeconds = measureReplayFold(served, config.SITE_ORIGIN);
console.log(JSON.stringify({ places: new Set(served.map((event) => event.placeId)).size, cpuSeconds }));
