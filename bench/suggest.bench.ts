// `npm run bench:suggest [-- --records N --sequences N --concurrency C]`: the typeahead
// (`GET /api/v1/suggest`) through the full API over HTTP, against the identical Elasticsearch requests
// sent directly, with the same concurrency, in the same run, on the served records of `bench:api`.
// Each simulated user types a real text one character at a time, waiting for each answer before the
// next keystroke: a doctor's name (half of the sequences), a city or a specialty label in the dataset's
// language (a quarter each), taken from the indexed records themselves.
import { parseArgs } from 'node:util';
import { buildSpecialtyCountsRequest } from '@directory/domain';
import { LIVE, type Live } from './api-workload.js';
import { startApi, type RunningApi } from './bench-api.js';
import {
  createBenchEnvironment,
  log,
  percentile,
  type BenchEnvironment,
  type PhaseRun,
} from './bench-environment.js';
import { NO_CPU, addCpu, cpuBetween, formatCpu, snapshotCpu, type CpuUsage } from './cpu-usage.js';
import { createRandom } from './seeded-random.js';
import { indexServedRecords } from './served-records.js';
import {
  apiSuggestClient,
  rawSuggestClient,
  runSuggestPhase as runPhase,
  type SuggestClient as Client,
  type SuggestTook,
} from './suggest-clients.js';
import {
  drawSequence,
  specialtyLabels,
  type SuggestSequence as Sequence,
  type SuggestTexts as Texts,
} from './suggest-workload.js';

type BenchOptions = { records: number; sequences: number; concurrency: number };

function parseOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      records: { type: 'string', default: '100000' },
      sequences: { type: 'string', default: '300' },
      // The same concurrency as `bench:api`.
      concurrency: { type: 'string', default: '16' },
    },
  });
  return {
    records: Number(values.records),
    sequences: Number(values.sequences),
    concurrency: Number(values.concurrency),
  };
}

/** Real names and cities of each dataset, read back from the index; the labels of its specialty codes. */
async function textsOf(environment: BenchEnvironment, country: Live): Promise<Texts> {
  const { client, alias } = environment;
  const dataset = { bool: { filter: [{ term: { served: true } }, { term: { country } }] } };
  const sample = await client.search<{ doctor: { name: string | null } }>({
    index: alias,
    size: 500,
    query: dataset,
    sort: [{ placeId: 'asc' }],
    _source: ['doctor.name'],
  });
  const names = sample.hits.hits.flatMap((hit) =>
    hit._source?.doctor.name ? [hit._source.doctor.name] : [],
  );
  const cityBuckets = await client.search({
    index: alias,
    size: 0,
    query: dataset,
    aggs: { cities: { terms: { field: 'cityName', size: 200 } } },
  });
  const cities = (
    (cityBuckets.aggregations?.cities as { buckets: Array<{ key: string }> } | undefined)?.buckets ?? []
  ).map((bucket) => bucket.key);
  const counts = await client.search({ index: alias, ...buildSpecialtyCountsRequest(country) });
  const codes = (
    (counts.aggregations?.specialties as { buckets: Array<{ key: string }> } | undefined)?.buckets ?? []
  ).map((bucket) => bucket.key);
  return { names, cities, specialties: specialtyLabels(country, codes) };
}

async function sequencesOf(environment: BenchEnvironment, count: number): Promise<Sequence[]> {
  const texts = new Map<Live, Texts>();
  for (const country of LIVE) texts.set(country, await textsOf(environment, country));
  const random = createRandom(11);
  return Array.from({ length: count }, () => {
    const country = random.pick(LIVE);
    return drawSequence(random, country, texts.get(country) as Texts);
  });
}

/** The bench's index on disk, in bytes (primaries; the bench has no replicas). */
async function indexSize(environment: BenchEnvironment): Promise<number> {
  const rows = await environment.client.cat.indices({
    index: `${environment.alias}*`,
    format: 'json',
    bytes: 'b',
    h: 'pri.store.size',
  });
  return rows.reduce((sum, row) => sum + Number(row['pri.store.size'] ?? 0), 0);
}

/** Typed text by the length of its last word: one letter (the costliest keystroke), 2–5 letters, more. */
function lengthClass(q: string): string {
  const last = [...(q.split(/\s+/).at(-1) ?? '')].length;
  return last <= 1 ? 'last word 1' : last <= 5 ? 'last word 2-5' : 'last word 6+';
}

type Summary = { rps: number; p50: number; p95: number; p99: number; count: number };

function summarize(runs: PhaseRun[]): Summary {
  const sorted = runs.flatMap((run) => run.latencies).sort((a, b) => a - b);
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  return {
    rps: sorted.length / seconds,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    count: sorted.length,
  };
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const line = (side: string, s: Summary) =>
  `${side} ${s.rps.toFixed(0)} req/s, p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms`;

const options = parseOptions();
const environment = await createBenchEnvironment('suggest');
let api: RunningApi | undefined;
try {
  const indexSeconds = await indexServedRecords(environment, options.records);
  const indexBytes = await indexSize(environment);
  log(`index ${indexBytes} bytes on disk (one segment), built in ${indexSeconds.toFixed(1)} s`);
  api = await startApi(environment);
  const ours = apiSuggestClient(api);
  // Elasticsearch's own time per request of the measured raw phases, by request and typed length.
  const took = new Map<string, number[]>();
  let measuring = false;
  const onTook: SuggestTook = (q, tookMs) => {
    if (!measuring) return;
    const key = `doctors ${lengthClass(q)}`;
    const values = took.get(key) ?? [];
    values.push(tookMs);
    took.set(key, values);
  };
  const raw = rawSuggestClient(environment, onTook);
  // Each round types its own draw of sequences; both sides of a round type the same ones.
  const all = await sequencesOf(environment, options.sequences * 3);
  const warmUp = all.slice(0, options.sequences);
  const rounds = [all.slice(options.sequences, 2 * options.sequences), all.slice(2 * options.sequences)];
  log('warming up');
  await runPhase(raw, warmUp, options.concurrency);
  await runPhase(ours, warmUp, options.concurrency);
  const runs: { ours: PhaseRun[]; raw: PhaseRun[] } = { ours: [], raw: [] };
  const cpu: { ours: CpuUsage; raw: CpuUsage } = { ours: NO_CPU, raw: NO_CPU };
  const apiPid = api.process.child.pid;
  // Where each side's CPU went (client, API, Elasticsearch, ...): on two shared cores, a CPU budget.
  const measured = async (side: 'ours' | 'raw', client: Client, sequences: Sequence[]) => {
    await environment.settle();
    const parts = () => snapshotCpu(apiPid === undefined ? [] : [apiPid], { self: 'client', child: 'api' });
    const before = parts();
    runs[side].push(await runPhase(client, sequences, options.concurrency));
    const after = parts();
    if (before && after) cpu[side] = addCpu(cpu[side], cpuBetween(before, after));
  };
  // Alternate sides so drift in the machine's load affects both alike.
  for (const sequences of rounds) {
    measuring = true;
    await measured('raw', raw, sequences);
    measuring = false;
    await measured('ours', ours, sequences);
  }
  const o = summarize(runs.ours);
  const r = summarize(runs.raw);
  log(
    `records ${options.records}, concurrency ${options.concurrency}, ${o.count} keystrokes per side (${options.sequences} sequences a round, 2 rounds)`,
  );
  log(line('ours:', o));
  log(line('raw: ', r));
  log(`ours ${formatCpu(cpu.ours, o.count / o.rps)}`);
  log(`raw  ${formatCpu(cpu.raw, r.count / r.rps)}`);
  const esCpuMs = (usage: CpuUsage, count: number) =>
    ((usage.byPart.get('elasticsearch') ?? 0) * 1000) / count;
  log(
    `Elasticsearch CPU per keystroke: ours ${esCpuMs(cpu.ours, o.count).toFixed(2)} ms, raw ${esCpuMs(cpu.raw, r.count).toFixed(2)} ms`,
  );
  for (const [key, values] of [...took].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const sorted = [...values].sort((a, b) => a - b);
    log(
      `raw took ${key}: ${sorted.length} requests, p50 ${percentile(sorted, 0.5)} ms, p99 ${percentile(sorted, 0.99)} ms`,
    );
  }
  console.log(
    JSON.stringify({
      bench: 'suggest',
      ours: round2(o.rps),
      raw: round2(r.rps),
      unit: 'req/s',
      p50_ours_ms: round2(o.p50),
      p95_ours_ms: round2(o.p95),
      p99_ours_ms: round2(o.p99),
      p50_raw_ms: round2(r.p50),
      p95_raw_ms: round2(r.p95),
      p99_raw_ms: round2(r.p99),
      es_cpu_ms_per_keystroke_ours: round2(esCpuMs(cpu.ours, o.count)),
      es_cpu_ms_per_keystroke_raw: round2(esCpuMs(cpu.raw, r.count)),
      index_bytes: indexBytes,
      index_seconds: round2(indexSeconds),
    }),
  );
} finally {
  await api?.process.stop('SIGKILL');
  await environment.cleanup();
}
