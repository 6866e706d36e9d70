// `npm run bench:validator [-- --count N --seed S]`: the CPU per event of `parsePlaceEvent` (the compiled
// fast path, zod for what it does not take) against zod alone (`parsePlaceEventWithZod`), on the events
// `bench:ingest` generates (seed 1, 50,000), each parsed from its line as the producer and the worker get
// it. Pure CPU, no server. After one untimed round of each, the sides alternate over 7 rounds; the figures
// are the medians of the process CPU (user + system, so garbage collection counts), with their ranges.
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { compilePlaceEventFastPath, parsePlaceEvent, parsePlaceEventWithZod } from '@directory/domain';
import { generateEvents } from '@directory/sample-data';
import { figure, formatFigure, roundedRange } from './rounds.js';

const ROUNDS = 7;

const log = (line: string) => process.stderr.write(`${line}\n`);

const { values } = parseArgs({
  options: { count: { type: 'string', default: '50000' }, seed: { type: 'string', default: '1' } },
});
const count = Number(values.count);
const seed = Number(values.seed);
if (!Number.isInteger(count) || count <= 0) throw new Error('--count must be a positive integer');

log(`generating ${count} events (seed ${seed})`);
const raws: unknown[] = [];
for (const event of generateEvents({ count, seed })) raws.push(JSON.parse(JSON.stringify(event)));

// The one-off cost a process pays on its first event: deriving the JSON Schemas and compiling them.
const compileStarted = process.cpuUsage();
const fastPath = compilePlaceEventFastPath();
const compileUsage = process.cpuUsage(compileStarted);
const compileMs = (compileUsage.user + compileUsage.system) / 1000;
const taken = raws.filter((raw) => fastPath(raw) !== undefined).length;

// Both sides must give the same answer for every event, or the figures compare different work.
const differing = raws.filter((raw) => !isDeepStrictEqual(parsePlaceEvent(raw), parsePlaceEventWithZod(raw)));
if (differing.length > 0) throw new Error(`${differing.length} events parse differently on the two sides`);

function microsecondsPerEvent(parse: (raw: unknown) => unknown): number {
  const started = process.cpuUsage();
  for (const raw of raws) parse(raw);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / raws.length;
}

const sides = { zod: parsePlaceEventWithZod, fast: parsePlaceEvent };
microsecondsPerEvent(sides.zod);
microsecondsPerEvent(sides.fast);
const rounds: Record<keyof typeof sides, number[]> = { zod: [], fast: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order: Array<keyof typeof sides> = round % 2 === 0 ? ['zod', 'fast'] : ['fast', 'zod'];
  for (const side of order) rounds[side].push(microsecondsPerEvent(sides[side]));
}
const zod = figure(rounds.zod);
const fast = figure(rounds.fast);
const saved = 1 - fast.median / zod.median;

log(`zod alone:   ${formatFigure(zod, 2, 'µs/event')}`);
log(`fast path:   ${formatFigure(fast, 2, 'µs/event')} (${(saved * 100).toFixed(0)}% less)`);
log(
  `taken by the fast path: ${taken} of ${raws.length} events; compiling it: ${compileMs.toFixed(0)} ms CPU`,
);
const round2 = (value: number) => Math.round(value * 100) / 100;
console.log(
  JSON.stringify({
    bench: 'validator',
    zod_us_per_event: round2(zod.median),
    fast_us_per_event: round2(fast.median),
    unit: 'µs/event (process CPU)',
    zod_range: roundedRange(zod),
    fast_range: roundedRange(fast),
    saved_fraction: round2(saved),
    events: raws.length,
    fast_path_taken: taken,
    compile_ms: Math.round(compileMs),
    rounds: ROUNDS,
  }),
);
