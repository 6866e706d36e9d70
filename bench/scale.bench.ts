// `npm run bench:scale -- --places N --events N [--steps 0,0.25,0.5,1] [--seed S] [--rounds R]
// [--requests N] [--concurrency C] [--ingest-events N] [--ingest-seconds S] [--keep] [--postgres shared|private --pg-preset
// defaults|tuned [--statements]] [--store NAME] [--phases reindex,search,export,replay,ingest] [--workloads literal,…,suggest,floor,feed] [--replay-lanes N]
// [--api-node-options O] [--search-cache on|off] [--sample N]`: the product measured at
// several store sizes (fractions of N places and N events). Each size gets a database and alias of its own, built by the
// bulk path (bench/scale-store.ts) and projected by the real `reindex` command; then, through the API as a
// process of its own: search p50/p99 per workload against the same requests straight to Elasticsearch,
// get by id, the typeahead (one `/suggest` per keystroke), a changes feed page, the export of the largest
// dataset; a replay and the replay's floor (its CPU ÷ the floor's, with the engines' CPU of the replay's merge and checks apart, and with
// `--statements` PostgreSQL's time by statement for each); a fixed batch through the real ingest
// pipeline (or such batches for `--ingest-seconds`: a long ingest's steady state); and the bytes per event and per place. `--store` measures a store an earlier `--keep` run left
// (its database and alias, on the server DATABASE_URL names) as it is, instead of the steps; `--phases`
// runs only those measurements (storage is always measured), `--workloads` only those parts of the search phase. A phase that fails is reported and its figures left out;
// the others still run (a full-size run takes hours). The last line is one JSON object
// (bench/scale-figures.ts).
import { parseArgs } from 'node:util';
import { availableParallelism } from 'node:os';
import { sql } from 'kysely';
import { ensureDoctorsIndex } from '@directory/search-index';
import { API_NODE_OPTIONS, startApi } from './bench-api.js';
import { createBenchEnvironment, log, type BenchEnvironment } from './bench-environment.js';
import { POSTGRES_OPTIONS, useBenchPostgres } from './bench-postgres.js';
import { describeMachine } from './machine.js';
import { parseRounds, ROUNDS_OPTION } from './rounds.js';
import { SEARCH_PHASE_PARTS, parseNameList } from './scale-workloads.js';
import { bytesPerEvent, bytesPerPlace, scaleSummary, type StepFigures } from './scale-figures.js';
import { ingestBatch, measureIngest } from './scale-ingest.js';
import {
  measureExport,
  measureFeed,
  measureKeyedFloor,
  measureReplay,
  measureSearch,
  measureStorage,
  project,
  sampleServedRecords,
  type SearchOptions,
} from './scale-measurements.js';
import { buildScaleStore, extraRecrawlsFor, markStoreProjected } from './scale-store.js';

/** The measurements of one store size, in the order they run (the ingest last: it changes the store). */
const PHASES = ['reindex', 'search', 'export', 'replay', 'ingest'] as const;
type Phase = (typeof PHASES)[number];

const { values } = parseArgs({
  options: {
    places: { type: 'string', default: '200000' },
    events: { type: 'string', default: '2000000' },
    steps: { type: 'string', default: '0,0.25,0.5,1' },
    seed: { type: 'string', default: '1' },
    rounds: ROUNDS_OPTION,
    requests: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '8' },
    'ingest-events': { type: 'string', default: '4000' },
    // 0: one batch of --ingest-events; more: such batches until that many seconds of ingest have passed.
    'ingest-seconds': { type: 'string', default: '0' },
    keep: { type: 'boolean', default: false },
    store: { type: 'string' },
    phases: { type: 'string', default: PHASES.join(',') },
    workloads: { type: 'string', default: SEARCH_PHASE_PARTS.join(',') },
    // The replay's lanes (`reindex --replay-lanes`); by default the command's own.
    'replay-lanes': { type: 'string' },
    // The API process's NODE_OPTIONS (a heap or GC setting measured against the default).
    'api-node-options': { type: 'string', default: API_NODE_OPTIONS },
    // The API's hot-query cache (SEARCH_CACHE); off: every search of our side goes to Elasticsearch, so
    // ours ÷ raw is what the API adds to the same searches.
    'search-cache': { type: 'string', default: 'on' },
    // Served records the workloads draw from. Few records make every request a repeat the hot-query
    // cache answers (at 1,000, literal, bbox, count and get were all but 100 % hits): the runs then
    // measured the cache, not the store.
    sample: { type: 'string', default: '100000' },
    ...POSTGRES_OPTIONS,
  },
});
const places = Number(values.places);
const events = Number(values.events);
const seed = Number(values.seed);
const steps = values.steps.split(',').map(Number);
const ingestEvents = Number(values['ingest-events']);
const ingestSeconds = Number(values['ingest-seconds']);
if (
  ![places, events, ingestEvents].every((value) => Number.isSafeInteger(value) && value > 0) ||
  !(Number.isSafeInteger(ingestSeconds) && ingestSeconds >= 0) ||
  !Number.isSafeInteger(seed) ||
  steps.some((step) => !(step >= 0 && step <= 1))
)
  throw new Error(
    '--places, --events and --ingest-events must be positive, --ingest-seconds at least 0, --steps fractions from 0 to 1',
  );
const replayLanes = values['replay-lanes'] === undefined ? undefined : Number(values['replay-lanes']);
if (replayLanes !== undefined && !(Number.isSafeInteger(replayLanes) && replayLanes > 0))
  throw new Error('--replay-lanes must be positive');
const phases = parseNameList('--phases', PHASES, values.phases);
const runs = (phase: Phase): boolean => phases.has(phase);
if (values.store !== undefined && values.postgres === 'private') {
  throw new Error('--store measures a store on the server DATABASE_URL names: leave out --postgres private');
}
const search: SearchOptions = {
  requests: Number(values.requests),
  concurrency: Number(values.concurrency),
  rounds: parseRounds(values.rounds),
  seed,
  parts: parseNameList('--workloads', SEARCH_PHASE_PARTS, values.workloads),
};
if (values['search-cache'] !== 'on' && values['search-cache'] !== 'off')
  throw new Error(`--search-cache must be on or off, not ${values['search-cache']}`);
const apiEnv = { NODE_OPTIONS: values['api-node-options'], SEARCH_CACHE: values['search-cache'] };
const sampleSize = Number(values.sample);
if (!(Number.isSafeInteger(sampleSize) && sampleSize > 0)) throw new Error('--sample must be positive');
const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);

const postgres = await useBenchPostgres('scale', values);
const measuredSteps: StepFigures[] = [];
try {
  // With --store, one step: the kept store as it is (fraction 1, nothing built).
  for (const [index, fraction] of (values.store === undefined ? steps : [1]).entries()) {
    const environment = await createBenchEnvironment('scale', { existing: values.store });
    try {
      if (index === 0) {
        const memory = await sql<{ setting: string }>`
        select current_setting('maintenance_work_mem') as setting`.execute(environment.db);
        log(
          `${(await describeMachine(environment)).block}\npostgresql maintenance_work_mem ${memory.rows[0]?.setting} ` +
            `(${postgres.label})\napi NODE_OPTIONS ${values['api-node-options']}, SEARCH_CACHE ${values['search-cache']}`,
        );
      }
      measuredSteps.push(await measureSize(environment, fraction));
    } finally {
      if (values.keep && values.store === undefined) {
        log(`kept database ${environment.databaseUrl} and alias ${environment.alias}`);
      }
      await (values.keep ? environment.release() : environment.cleanup());
    }
  }
} finally {
  await (values.keep ? postgres.keep() : postgres.destroy());
}
console.log(JSON.stringify({ bench: 'scale', ...scaleSummary(measuredSteps) }));

async function measureSize(environment: BenchEnvironment, fraction: number): Promise<StepFigures> {
  const size = { places: Math.round(places * fraction), events: Math.round(events * fraction) };
  log(
    values.store === undefined
      ? `\n== ${(fraction * 100).toFixed(0)} %: ${size.places} places, ${size.events} events generated ==`
      : `\n== the kept store ${values.store} ==`,
  );
  let stage = performance.now();
  const took = (): string => {
    const seconds = (performance.now() - stage) / 1000;
    stage = performance.now();
    return `${seconds.toFixed(1)} s`;
  };
  if (size.places > 0 && values.store === undefined) {
    const built = await buildScaleStore(environment.databaseUrl, {
      ...size,
      seed,
      extraRecrawlsPerPlace: extraRecrawlsFor(events, places),
      siteOrigin: environment.config.SITE_ORIGIN,
      dropIndexes: true,
      threads: availableParallelism(),
    });
    log(
      `bulk build: ${built.storedEvents} events, ${built.places} places (${built.servedPlaces} served) in ${took()} ` +
        `(generate + fold in Node ${built.generateFoldSeconds.toFixed(1)} s, indexes ${built.indexSeconds.toFixed(1)} s, ` +
        `vacuum ${built.vacuumSeconds.toFixed(1)} s)`,
    );
  }
  await ensureDoctorsIndex(environment.client, environment.alias);
  if (runs('reindex')) {
    const projected = await project(environment);
    log(`reindex (projection into Elasticsearch): ${took()}, peak RSS ${projected.rssMb} MB`);
  }
  const storage = await measureStorage(environment);
  log(
    `storage: events ${mb(storage.eventsBytes)} MB (${bytesPerEvent(storage)?.toFixed(0) ?? '-'} B per event), ` +
      `places ${mb(storage.placesBytes)} MB + Elasticsearch ${mb(storage.searchBytes)} MB ` +
      `(${bytesPerPlace(storage)?.toFixed(0) ?? '-'} B per place)`,
  );
  const figures: StepFigures = { places: storage.places, storage, search: {} };
  const sample = await sampleServedRecords(environment, sampleSize);
  if (sample.length > 0 && runs('search')) {
    const api = await startApi(environment, apiEnv);
    try {
      log(
        `search and get, ours against raw (medians over ${search.rounds} rounds; ` +
          `requests drawn from ${sample.length} served records):`,
      );
      figures.search = (await phase('search', () => measureSearch(environment, api, sample, search))) ?? {};
      if (search.parts.has('floor')) await phase("the API's floor", () => measureKeyedFloor(api, search));
      if (search.parts.has('feed'))
        figures.feed = await phase('changes feed', () => measureFeed(environment, api, search));
      log(`search and feed: ${took()}`);
    } finally {
      await api.process.stop('SIGTERM');
    }
  }
  if (sample.length > 0 && runs('export')) {
    // The export on an API of its own: its resident set is the export's, not the heap the searches grew.
    const exportApi = await startApi(environment, apiEnv);
    try {
      figures.export = await phase('export', () => measureExport(environment, exportApi));
      log(`export: ${took()}`);
    } finally {
      await exportApi.process.stop('SIGTERM');
    }
  }
  if (sample.length > 0 && runs('replay')) {
    figures.replay = await phase('replay', () => measureReplay(environment, replayLanes));
    if (figures.replay) {
      const { seconds, rssMb, busy, cpuRatio } = figures.replay;
      log(
        `replay: ${seconds.toFixed(1)} s, peak RSS ${rssMb} MB, busy ${busy.toFixed(2)}, ` +
          `CPU ÷ floor ${cpuRatio?.toFixed(2) ?? '-'}`,
      );
    }
    took();
  }
  // Last: the batch changes the store the other measurements read.
  if (runs('ingest')) {
    // The only measure with a worker: it must not sweep a bulk-built store's places beside the batches.
    const marked = await markStoreProjected(environment.databaseUrl);
    log(`${marked} places marked projected (as the worker marks what it wrote to the index): ${took()}`);
    const ingest = await phase('ingest', async () =>
      measureIngest(
        environment,
        (round) => ingestBatch(environment, sample, ingestEvents, seed + round),
        ingestSeconds,
      ),
    );
    figures.ingestEventsPerSecond = ingest?.eventsPerSecond;
    log(`ingest: ${took()}`);
  }
  return figures;
}

/** Runs one measurement; a failure is printed and leaves its figures out instead of ending the run. */
async function phase<T>(what: string, measure: () => Promise<T>): Promise<T | undefined> {
  try {
    return await measure();
  } catch (error) {
    log(
      `${what} failed, its figures are left out: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return undefined;
  }
}
