// `npm run bench:hostile-header [-- --quota 6000 --window 60 --seconds 15 --rounds 2 --connections 4
// --interval 20 --spaces 60000]`: what one key sending a hostile If-None-Match header (a list element
// that fails to parse after 60,000 spaces) at its full quota does to another client. A bystander key
// reads GET /api/v1/key every `interval` ms; its p99 latency alone (unloaded) is compared with its p99
// while the attacking key sends the header as fast as its quota allows (`quota` requests per `window`
// seconds, evenly spaced over `connections` connections, from a process of its own). Unloaded and
// loaded phases alternate, `rounds` of each, so drift in the machine's load falls on both alike.
// Goal: loaded p99 within 1.5x of unloaded. Ends with one JSON line of the figures.
import { Agent, request } from 'node:http';
import { setPriority } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createApiKey, ensureAccount } from '@directory/keys';
import { ensureDoctorsIndex } from '@directory/search-index';
import { freePort, startProcess, type RunningProcess } from '@directory/testing';
import { createBenchEnvironment, log, percentile } from './bench-environment.js';
import { cpuBetween, snapshotCpu } from './cpu-usage.js';

const { values } = parseArgs({
  options: {
    quota: { type: 'string', default: '6000' },
    window: { type: 'string', default: '60' },
    seconds: { type: 'string', default: '15' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '4' },
    interval: { type: 'string', default: '20' },
    spaces: { type: 'string', default: '60000' },
  },
});
const quota = Number(values.quota);
const windowSeconds = Number(values.window);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const intervalMs = Number(values.interval);
const spaces = Number(values.spaces);
for (const [name, value] of Object.entries({
  quota,
  windowSeconds,
  seconds,
  rounds,
  connections,
  intervalMs,
})) {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
}
if (!Number.isInteger(spaces) || spaces < 0) throw new Error('--spaces must be a whole number');
const quotaRate = quota / windowSeconds;
// The bystander has a quota of its own: a 429 would measure the limit, not the attack. Its warm-up
// requests and one window of its paced requests must fit in it.
const BYSTANDER_WARM_UP = 5;
if (BYSTANDER_WARM_UP + (windowSeconds * 1000) / intervalMs > quota) {
  throw new Error('the bystander would outrun its quota: raise --interval or --quota');
}

type Phase = { latencies: number[]; apiCpuSeconds: number; statuses: Record<number, number> };

const bystanderAgent = new Agent({ keepAlive: true, maxSockets: 1 });

function getKey(url: string, key: string): Promise<{ status: number; milliseconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent: bystanderAgent, headers: { 'x-api-key': key } }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, milliseconds: performance.now() - started }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The bystander's requests for `seconds`, one every `intervalMs` (or right after a slower answer). */
async function bystanderPhase(url: string, key: string, apiPid: number | undefined): Promise<Phase> {
  const phase: Phase = { latencies: [], apiCpuSeconds: 0, statuses: {} };
  const before = snapshotCpu(apiPid === undefined ? [] : [apiPid], { self: 'bench', child: 'api' });
  const started = performance.now();
  for (let index = 0; performance.now() - started < seconds * 1000; index += 1) {
    const wait = started + index * intervalMs - performance.now();
    if (wait > 0) await sleep(wait);
    const answer = await getKey(url, key);
    phase.statuses[answer.status] = (phase.statuses[answer.status] ?? 0) + 1;
    phase.latencies.push(answer.milliseconds);
  }
  const after = snapshotCpu(apiPid === undefined ? [] : [apiPid], { self: 'bench', child: 'api' });
  if (before && after) phase.apiCpuSeconds = cpuBetween(before, after).byPart.get('api') ?? 0;
  return phase;
}

const hundredths = (value: number) => Math.round(value * 100) / 100;
const p99Of = (phase: Phase) =>
  percentile(
    [...phase.latencies].sort((a, b) => a - b),
    0.99,
  );

const summarize = (phases: Phase[]) => {
  const latencies = phases.flatMap((phase) => phase.latencies).sort((a, b) => a - b);
  const statuses: Record<number, number> = {};
  for (const phase of phases)
    for (const [status, count] of Object.entries(phase.statuses))
      statuses[Number(status)] = (statuses[Number(status)] ?? 0) + count;
  return {
    requests: latencies.length,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? 0,
    statuses,
    apiCpuPerSecond: phases.reduce((sum, phase) => sum + phase.apiCpuSeconds, 0) / (seconds * phases.length),
  };
};

const environment = await createBenchEnvironment('hostile');
let api: RunningProcess | undefined;
try {
  // The API needs its alias at start; /api/v1/key never searches it.
  await ensureDoctorsIndex(environment.client, environment.alias);
  const keyFor = async (email: string) => {
    const account = await ensureAccount(environment.db, email);
    return (await createApiKey(environment.db, { accountId: account.id, name: 'bench' })).secret;
  };
  const attacker = await keyFor('attacker@bench.example.com');
  const bystander = await keyFor('bystander@bench.example.com');
  const warmer = await keyFor('warm-up@bench.example.com');
  const port = await freePort();
  api = startProcess('services/api/src/server.ts', [], {
    DATABASE_URL: environment.databaseUrl,
    REDIS_PREFIX: environment.redisPrefix,
    ELASTICSEARCH_INDEX: environment.alias,
    HOST: '127.0.0.1',
    API_PORT: String(port),
    RATE_LIMIT_MAX: String(quota),
    RATE_LIMIT_WINDOW_S: String(windowSeconds),
    // One key per account: the account ceiling must not cut the attacker below its key's quota.
    ACCOUNT_RATE_LIMIT_MAX: String(quota),
    LOG_LEVEL: 'info',
  });
  await api.waitForOutput(/Server listening/);
  const url = `http://127.0.0.1:${port}/api/v1/key`;
  const apiPid = api.child.pid;

  log(
    `bystander: GET /api/v1/key every ${intervalMs} ms; attacker: If-None-Match of ${spaces.toLocaleString('en')} ` +
      `spaces at its quota, ${quota} per ${windowSeconds} s (${quotaRate.toFixed(1)}/s) over ${connections} connections`,
  );
  // Connections, JIT and the request path on a key of its own; the bystander's own key row just once.
  log('warming up');
  for (let index = 0; index < 50; index += 1) await getKey(url, warmer);
  for (let index = 0; index < BYSTANDER_WARM_UP; index += 1) await getKey(url, bystander);

  const unloaded: Phase[] = [];
  const loaded: Phase[] = [];
  const hostileSummaries: Array<{ sent: number; statuses: Record<number, number>; p99Ms: number }> = [];
  for (let round = 1; round <= rounds; round += 1) {
    const quietPhase = await bystanderPhase(url, bystander, apiPid);
    unloaded.push(quietPhase);
    log(`round ${round}: unloaded p99 ${p99Of(quietPhase).toFixed(2)} ms`);

    const hostile = startProcess(
      'bench/hostile-header-client.ts',
      [url, attacker, String(quotaRate), String(connections), String(seconds + 1), String(spaces)],
      {},
    );
    await hostile.waitForOutput(/hostile started/);
    // A real attacker's CPU is not the server's: on two cores its client would otherwise compete with
    // the server and count its own cost against the bystander's latency.
    if (hostile.child.pid !== undefined) setPriority(hostile.child.pid, 19);
    const attackedPhase = await bystanderPhase(url, bystander, apiPid);
    loaded.push(attackedPhase);
    const code = await hostile.exited;
    if (code !== 0) throw new Error(`the hostile client exited ${code}:\n${hostile.output()}`);
    const summary = /hostile done (.+)/.exec(hostile.output())?.[1];
    if (summary === undefined) throw new Error(`no summary from the hostile client:\n${hostile.output()}`);
    hostileSummaries.push(JSON.parse(summary) as (typeof hostileSummaries)[number]);
    log(`round ${round}: loaded p99 ${p99Of(attackedPhase).toFixed(2)} ms; attacker ${summary}`);
    await sleep(1_000); // the attacker's last requests drain before the next unloaded phase
  }

  const quiet = summarize(unloaded);
  const attacked = summarize(loaded);
  const ratio = attacked.p99 / quiet.p99;
  const hostileStatuses: Record<number, number> = {};
  for (const { statuses } of hostileSummaries)
    for (const [status, count] of Object.entries(statuses))
      hostileStatuses[Number(status)] = (hostileStatuses[Number(status)] ?? 0) + count;
  const hostileSent = hostileSummaries.reduce((sum, { sent }) => sum + sent, 0);
  const hostileP99 = Math.max(...hostileSummaries.map(({ p99Ms }) => p99Ms));

  console.log(
    `bystander unloaded: ${quiet.requests} requests, p50 ${quiet.p50.toFixed(2)} ms, p99 ${quiet.p99.toFixed(2)} ms, ` +
      `max ${quiet.max.toFixed(1)} ms; API CPU ${(quiet.apiCpuPerSecond * 100).toFixed(0)}% of a core`,
  );
  console.log(
    `bystander loaded:   ${attacked.requests} requests, p50 ${attacked.p50.toFixed(2)} ms, p99 ${attacked.p99.toFixed(2)} ms, ` +
      `max ${attacked.max.toFixed(1)} ms; API CPU ${(attacked.apiCpuPerSecond * 100).toFixed(0)}% of a core`,
  );
  console.log(
    `attacker: ${hostileSent} hostile requests ${JSON.stringify(hostileStatuses)}, its own p99 ${hostileP99.toFixed(1)} ms`,
  );
  console.log(
    `p99 ratio loaded/unloaded ${ratio.toFixed(2)} (goal ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'})`,
  );
  console.log(
    JSON.stringify({
      bench: 'hostile-header',
      spaces,
      quota,
      window_s: windowSeconds,
      attacker_rate_per_s: quotaRate,
      connections,
      bystander_interval_ms: intervalMs,
      unloaded_p50_ms: hundredths(quiet.p50),
      unloaded_p99_ms: hundredths(quiet.p99),
      loaded_p50_ms: hundredths(attacked.p50),
      loaded_p99_ms: hundredths(attacked.p99),
      ratio: hundredths(ratio),
      unloaded_requests: quiet.requests,
      loaded_requests: attacked.requests,
      bystander_statuses: { unloaded: quiet.statuses, loaded: attacked.statuses },
      hostile_requests: hostileSent,
      hostile_statuses: hostileStatuses,
      hostile_p99_ms: hundredths(hostileP99),
      api_cpu_per_s: {
        unloaded: hundredths(quiet.apiCpuPerSecond),
        loaded: hundredths(attacked.apiCpuPerSecond),
      },
    }),
  );
} finally {
  bystanderAgent.destroy();
  await api?.stop('SIGTERM');
  await environment.cleanup();
}
