// `npm run bench:freshness [-- --seconds 60 --rate 2]`: how long after `ingest` accepts an event the API
// returns it in a search, measured per event while the API serves searches; against the index's refresh
// interval, the floor any index-then-search path has.
import { parseArgs } from 'node:util';
import { ensureDoctorsIndex } from '@directory/search-index';
import { createBenchEnvironment, log } from './bench-environment.js';
import { freshnessPercentiles, GIVE_UP_MS, measureFreshness, startLivePipeline } from './live-freshness.js';
import { summarizeStages } from './replay-figures.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '2' },
    places: { type: 'string', default: '500' },
  },
});
const seconds = Number(values.seconds);
const rate = Number(values.rate);
const placeCount = Number(values.places);
if (!(seconds > 0) || !(rate > 0) || !Number.isInteger(placeCount) || placeCount <= 0) {
  throw new Error('--seconds and --rate must be positive, --places a positive integer');
}

const environment = await createBenchEnvironment('freshness');
const { client } = environment;
try {
  await ensureDoctorsIndex(client, environment.alias);
  const pipeline = await startLivePipeline(environment, placeCount);

  const total = Math.round(seconds * rate);
  log(`sending ${total} events, one at a time at ${rate}/s, for ${seconds} s`);
  // Background readers: the API keeps serving ordinary searches throughout.
  const run = await measureFreshness(pipeline, {
    rate,
    keepSending: (sent) => sent < total,
    backgroundReaders: 2,
  });

  const settings = await client.indices.getSettings({ index: environment.alias, include_defaults: true });
  const indexSettings = Object.values(settings)[0];
  const refreshSetting =
    indexSettings?.settings?.index?.refresh_interval ??
    indexSettings?.defaults?.index?.refresh_interval ??
    '1s';
  const refreshMs = parseDuration(String(refreshSetting));

  await pipeline.stop();

  const { p50, p99, max } = freshnessPercentiles(run);
  log(
    `ours: ${run.latencies.length} events searchable, p50 ${p50} ms, p99 ${p99} ms, max ${max} ms; ${run.missed} not found within ${GIVE_UP_MS / 1000} s; ${run.backgroundSearches} background searches`,
  );
  log(`  where it went: ${summarizeStages(run.found)}`);
  log(`raw:  index refresh interval ${refreshMs} ms`);
  console.log(
    JSON.stringify({
      bench: 'freshness',
      ours: p99,
      raw: refreshMs,
      unit: 'ms',
      p50,
      p99,
      max,
      events: total,
      missed: run.missed,
      rate,
    }),
  );
} finally {
  await environment.cleanup();
}

function parseDuration(value: string): number {
  const match = /^(\d+)(ms|s|m)$/.exec(value);
  if (!match) return Number.NaN;
  const amount = Number(match[1]);
  return match[2] === 'ms' ? amount : match[2] === 's' ? amount * 1_000 : amount * 60_000;
}
