// `npm run bench:exports [-- --records N --rounds N]`: whole-dataset exports (`GET /api/v1/exports/{country}`)
// through the full API over HTTP, against an Elasticsearch point-in-time scroll of the same records sent
// directly (search_after pages of 1,000 with _source, sorted by _shard_doc), alternating, in the same run,
// on the served records of `bench:api` (stored as the worker stores them, and indexed).
import { parseArgs } from 'node:util';
import type { estypes } from '@elastic/elasticsearch';
import { LIVE } from './api-workload.js';
import { exportDataset } from './api-clients.js';
import { startApi, type RunningApi } from './bench-api.js';
import { createBenchEnvironment, log, type BenchEnvironment } from './bench-environment.js';
import { indexServedRecords, storeServedRecords } from './served-records.js';

type BenchOptions = { records: number; rounds: number };

function parseOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      records: { type: 'string', default: '100000' },
      rounds: { type: 'string', default: '3' },
    },
  });
  return { records: Number(values.records), rounds: Number(values.rounds) };
}

/** One side's pass over every dataset: the records it read and how long it took. */
type Pass = { records: number; seconds: number };

/** The same dataset straight from Elasticsearch: a point in time, then search_after pages of 1,000. */
async function scrollDataset(environment: BenchEnvironment, country: string): Promise<number> {
  const { client, alias } = environment;
  const pit = await client.openPointInTime({ index: alias, keep_alive: '1m' });
  let records = 0;
  let after: estypes.SortResults | undefined;
  try {
    for (;;) {
      const page = await client.search<{ doctor: unknown }>({
        size: 1_000,
        pit: { id: pit.id, keep_alive: '1m' },
        query: { bool: { filter: [{ term: { served: true } }, { term: { country } }] } },
        sort: [{ _shard_doc: 'asc' }],
        _source: ['doctor'],
        track_total_hits: false,
        ...(after === undefined ? {} : { search_after: after }),
      });
      const hits = page.hits.hits;
      records += hits.length;
      after = hits[hits.length - 1]?.sort;
      if (hits.length < 1_000 || after === undefined) return records;
    }
  } finally {
    await client.closePointInTime({ id: pit.id });
  }
}

async function timedPass(read: (country: string) => Promise<number>): Promise<Pass> {
  const started = performance.now();
  let records = 0;
  for (const country of LIVE) records += await read(country);
  return { records, seconds: (performance.now() - started) / 1000 };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const round2 = (value: number) => Math.round(value * 100) / 100;

const options = parseOptions();
const environment = await createBenchEnvironment('exports');
let api: RunningApi | undefined;
try {
  await indexServedRecords(environment, options.records);
  await storeServedRecords(environment, options.records);
  api = await startApi(environment);
  const running = api;
  log('warming up');
  await timedPass((country) => exportDataset(running, country));
  await timedPass((country) => scrollDataset(environment, country));
  const rates: { ours: number[]; raw: number[] } = { ours: [], raw: [] };
  // Alternate sides so drift in the machine's load affects both alike.
  for (let round = 1; round <= options.rounds; round += 1) {
    await environment.settle();
    const ours = await timedPass((country) => exportDataset(running, country));
    await environment.settle();
    const raw = await timedPass((country) => scrollDataset(environment, country));
    if (ours.records !== raw.records) {
      throw new Error(`the export read ${ours.records} records, the scroll ${raw.records}`);
    }
    rates.ours.push(ours.records / ours.seconds);
    rates.raw.push(raw.records / raw.seconds);
    log(
      `round ${round}: ours ${(ours.records / ours.seconds).toFixed(0)} records/s (${ours.seconds.toFixed(2)} s), raw ${(raw.records / raw.seconds).toFixed(0)} records/s (${raw.seconds.toFixed(2)} s), ${ours.records} records`,
    );
  }
  const ours = median(rates.ours);
  const raw = median(rates.raw);
  log(
    `medians: ours ${ours.toFixed(0)} records/s, raw ${raw.toFixed(0)} records/s, ratio ${(ours / raw).toFixed(2)}`,
  );
  console.log(
    JSON.stringify({
      bench: 'exports',
      records: options.records,
      ours_records_per_s: round2(ours),
      raw_records_per_s: round2(raw),
      ratio: round2(ours / raw),
    }),
  );
} finally {
  await api?.process.stop('SIGKILL');
  await environment.cleanup();
}
