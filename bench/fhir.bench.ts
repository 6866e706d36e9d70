// `npm run bench:fhir [-- --records N --requests N --concurrency C --rounds R]`:
// FHIR search (`GET /fhir/R4/{type}?…`, a searchset Bundle) against the JSON API's same search
// (`GET /api/v1/doctors?…`: the same filters, page size and fields, so both ask Elasticsearch the same
// request) on the running API over HTTP, with the same concurrency, in the same run, on bench:api's
// served records (api-workload.ts). Each task is one search of one resource type, paged 1 to 3 pages
// deep by the next link (FHIR) or the next cursor (JSON). The hot-query cache is off: both sides send
// the same searches, and the second would otherwise be answered from the first's cache. Before the
// rounds, every warm-up task's first page is checked to return the same records on both sides.
// Each round draws its own tasks (both sides the same ones), the sides' order alternating from round to
// round (rounds.ts). The last line: both sides' throughput and p99 (every round's requests pooled), the
// ratios FHIR ÷ JSON, and whether the goals hold (p99 within 1.3×, throughput at least 0.8×).
import { parseArgs } from 'node:util';
import { citiesOf } from '@directory/sample-data';
import type { RunningProcess } from '@directory/testing';
import { LIVE, type Live } from './api-workload.js';
import { startApi, type RunningApi } from './bench-api.js';
import { createBenchEnvironment, log, runConcurrently, type PhaseRun } from './bench-environment.js';
import { summarize } from './api-clients.js';
import { NO_CPU, addCpu, formatCpu, measureClientPhase, type CpuUsage } from './cpu-usage.js';
import { describeMachine } from './machine.js';
import {
  alternateRounds,
  figure,
  formatFigure,
  parseRounds,
  resultsOf,
  roundedRange,
  ROUNDS_OPTION,
} from './rounds.js';
import { indexServedRecords } from './served-records.js';
import { createRandom, type Random } from './seeded-random.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    rounds: ROUNDS_OPTION,
  },
});
const records = Number(values.records);
const requestsPerPhase = Number(values.requests);
const concurrency = Number(values.concurrency);
const rounds = parseRounds(values.rounds);
for (const [option, value] of Object.entries({ records, requests: requestsPerPhase, concurrency })) {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${option} must be a positive integer`);
}

const P99_GOAL = 1.3;
const THROUGHPUT_GOAL = 0.8;

type FhirType = 'Organization' | 'Location' | 'HealthcareService';

/** One search as both sides send it: FHIR's parameters and the JSON API's, and how many pages deep. */
type Task = { type: FhirType; fhir: Record<string, string>; json: Record<string, string>; pages: number };

// The bench records' specialty codes (api-workload.ts's specialties) and the cities they are spread over.
const SPECIALTY_CODES = ['general-practice', 'cardiology', 'pediatrics', 'dermatology', 'dentistry'];
const ISO: Record<Live, string> = { de: 'DE', es: 'ES', it: 'IT', pt: 'PT' };
const cities = (country: Live) => citiesOf(ISO[country]).cities.slice(0, 10);

/**
 * A search with parameters both sides have: the dataset always, a city half the time, a specialty or
 * new patients on HealthcareService, `near` (with a radius) on a sixth of the Location searches.
 */
function drawTask(random: Random): Task {
  const type = random.pick(['Organization', 'Location', 'HealthcareService'] as const);
  const country = random.pick(LIVE);
  const count = String(random.pick([10, 25, 50]));
  const fhir: Record<string, string> = { 'address-country': country, _count: count };
  const json: Record<string, string> = { country, limit: count, fields: '*' };
  const city = random.pick(cities(country));
  if (type === 'Location' && random.next() < 1 / 6) {
    const km = random.pick([2, 10, 50]);
    fhir.near = `${city.latitude}|${city.longitude}|${km}|km`;
    json.near = `${city.latitude},${city.longitude}`;
    json.radius = String(km * 1000);
  } else if (random.next() < 0.5) {
    fhir['address-city'] = city.slug;
    json.city = city.slug;
  }
  if (type === 'HealthcareService' && random.next() < 0.4) {
    const code = random.pick(SPECIALTY_CODES);
    fhir.specialty = code;
    json.specialty = code;
  }
  if (type === 'HealthcareService' && random.next() < 0.2) {
    const accepting = random.next() < 0.5;
    fhir['new-patients'] = accepting ? 'newpt' : 'nopt';
    json.acceptingNewPatients = String(accepting);
  }
  return { type, fhir, json, pages: random.int(1, 3) };
}

function drawTasks(random: Random, requests: number): Task[] {
  const tasks: Task[] = [];
  for (let sent = 0; sent < requests;) {
    const task = drawTask(random);
    tasks.push(task);
    sent += task.pages;
  }
  return tasks;
}

/** One page of one side: the ids it returned (as record ids) and the URL of the next page, if any. */
type Page = { ids: string[]; next: string | null };
type Side = { first: (task: Task) => string; read: (url: string) => Promise<Page> };

async function getJson(url: string, api: RunningApi): Promise<unknown> {
  const response = await fetch(url, { headers: api.headers });
  if (!response.ok)
    throw new Error(`${url}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
  return response.json();
}

function fhirSide(api: RunningApi): Side {
  const base = api.base.replace(/\/api\/v1$/, '/fhir/R4');
  return {
    first: (task) => `${base}/${task.type}?${new URLSearchParams(task.fhir).toString()}`,
    read: async (url) => {
      const bundle = (await getJson(url, api)) as {
        entry?: Array<{ resource: { id: string } }>;
        link: Array<{ relation: string; url: string }>;
      };
      return {
        ids: (bundle.entry ?? []).map((entry) => entry.resource.id.replaceAll('.', '_')),
        next: bundle.link.find((link) => link.relation === 'next')?.url ?? null,
      };
    },
  };
}

function jsonSide(api: RunningApi): Side {
  const first = (task: Task) => `${api.base}/doctors?${new URLSearchParams(task.json).toString()}`;
  return {
    first,
    read: async (url) => {
      const body = (await getJson(url, api)) as {
        doctors: Array<{ id: string }>;
        page: { nextCursor: string | null };
      };
      const next = new URL(url);
      next.searchParams.set('cursor', body.page.nextCursor ?? '');
      return {
        ids: body.doctors.map((record) => record.id),
        next: body.page.nextCursor === null ? null : next.toString(),
      };
    },
  };
}

function runSide(side: Side, tasks: ReadonlyArray<Task>): Promise<PhaseRun> {
  return runConcurrently(tasks, concurrency, async (task, timed) => {
    let url: string | null = side.first(task);
    for (let page = 0; page < task.pages && url !== null; page += 1) {
      const read: Page = await timed(() => side.read(url as string));
      url = read.next;
    }
  });
}

type Measured = { run: PhaseRun; cpu: CpuUsage };

const round2 = (value: number) => Math.round(value * 100) / 100;

const environment = await createBenchEnvironment('fhir');
let apiProcess: RunningProcess | undefined;
try {
  log((await describeMachine(environment)).block);
  await indexServedRecords(environment, records);
  const api = await startApi(environment, { SEARCH_CACHE: 'off' });
  apiProcess = api.process;
  const sides = { fhir: fhirSide(api), json: jsonSide(api) };
  const random = createRandom(7);
  const roundTasks = Array.from({ length: rounds }, () => drawTasks(random, requestsPerPhase));
  const pid = api.process.child.pid;
  const measured = await alternateRounds<Measured>({
    rounds,
    sides: (['fhir', 'json'] as const).map((name) => ({
      name,
      run: (round: number) => measureClientPhase(pid, () => runSide(sides[name], roundTasks[round] ?? [])),
    })),
    warmup: async () => {
      const tasks = drawTasks(random, requestsPerPhase);
      log(`warming up (${requestsPerPhase} requests a side), checking both sides find the same records`);
      await runConcurrently(tasks, concurrency, async (task) => {
        const [fhir, json] = await Promise.all([
          sides.fhir.read(sides.fhir.first(task)),
          sides.json.read(sides.json.first(task)),
        ]);
        if (fhir.ids.join() !== json.ids.join())
          throw new Error(
            `not the same search: ${JSON.stringify(task)} (${fhir.ids.join()} / ${json.ids.join()})`,
          );
      });
      await runSide(sides.json, tasks);
      await runSide(sides.fhir, tasks);
    },
    afterRound: ({ round, order, results }) => {
      const line = (name: string) => {
        const { rps, p50, p99 } = summarize((results.get(name) as Measured).run);
        return `${name} ${rps.toFixed(0)} req/s p50 ${p50.toFixed(2)} ms p99 ${p99.toFixed(2)} ms`;
      };
      log(`round ${round + 1} (${order.join(' then ')}): ${line('fhir')}; ${line('json')}`);
    },
  });
  await api.process.stop('SIGTERM');
  const pooled = (name: 'fhir' | 'json') => {
    const phases = resultsOf(measured, name);
    return {
      summary: summarize({
        latencies: phases.flatMap((phase) => phase.run.latencies),
        seconds: phases.reduce((sum, phase) => sum + phase.run.seconds, 0),
      }),
      cpuLine: formatCpu(
        phases.reduce((sum, phase) => addCpu(sum, phase.cpu), NO_CPU),
        phases.reduce((sum, phase) => sum + phase.run.seconds, 0),
      ),
    };
  };
  const fhir = pooled('fhir');
  const json = pooled('json');
  const roundRatios = resultsOf(measured, 'fhir').map((phase, index) => {
    const other = summarize((resultsOf(measured, 'json')[index] as Measured).run);
    const own = summarize(phase.run);
    return { p99: own.p99 / other.p99, rps: own.rps / other.rps };
  });
  const p99Ratio = fhir.summary.p99 / json.summary.p99;
  const rpsRatio = fhir.summary.rps / json.summary.rps;
  log(`records ${records}, concurrency ${concurrency}, ${requestsPerPhase} requests per side and round`);
  log(`fhir: ${fhir.summary.rps.toFixed(0)} req/s, p99 ${fhir.summary.p99.toFixed(2)} ms; ${fhir.cpuLine}`);
  log(`json: ${json.summary.rps.toFixed(0)} req/s, p99 ${json.summary.p99.toFixed(2)} ms; ${json.cpuLine}`);
  const p99Rounds = figure(roundRatios.map((ratio) => ratio.p99));
  const rpsRounds = figure(roundRatios.map((ratio) => ratio.rps));
  log(`p99 FHIR ÷ JSON per round: ${formatFigure(p99Rounds)}`);
  log(`throughput FHIR ÷ JSON per round: ${formatFigure(rpsRounds)}`);
  console.log(
    JSON.stringify({
      bench: 'fhir',
      records,
      concurrency,
      rounds,
      requests_per_side_and_round: requestsPerPhase,
      fhir_rps: round2(fhir.summary.rps),
      json_rps: round2(json.summary.rps),
      fhir_p50_ms: round2(fhir.summary.p50),
      json_p50_ms: round2(json.summary.p50),
      fhir_p99_ms: round2(fhir.summary.p99),
      json_p99_ms: round2(json.summary.p99),
      p99_ratio: round2(p99Ratio),
      throughput_ratio: round2(rpsRatio),
      p99_ratio_rounds: roundedRange(p99Rounds),
      throughput_ratio_rounds: roundedRange(rpsRounds),
      p99_goal_met: p99Ratio <= P99_GOAL,
      throughput_goal_met: rpsRatio >= THROUGHPUT_GOAL,
    }),
  );
} finally {
  // A failed run must not leave its API process behind (it is already stopped on success).
  await apiProcess?.stop('SIGKILL');
  await environment.cleanup();
}
