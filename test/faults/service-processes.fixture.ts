import { loadConfig } from '@directory/config';
import type { Database } from '@directory/database';
import { createApiKey, ensureAccount } from '@directory/keys';
import {
  freePort,
  SITE_ORIGIN,
  startLoad,
  startProcess,
  type ResponseTally,
  type RunningProcess,
  UNLIMITED_QUOTAS,
} from '@directory/testing';

/**
 * What every fault scenario's processes share: the shared Redis (each spec passes its own prefix), short
 * lock and sweep timings so faults play out in seconds, and quotas out of the way of the load.
 */
export function faultEnvironment(env: Record<string, string>): Record<string, string> {
  return {
    REDIS_URL: loadConfig().REDIS_URL,
    SITE_ORIGIN,
    ...UNLIMITED_QUOTAS,
    WORKER_LOCK_DURATION_MS: '2000',
    SWEEP_INTERVAL_MS: '1000',
    SWEEP_GRACE_MS: '2000',
    LOG_LEVEL: 'info',
    ...env,
  };
}

/** The project's processes, started as a user would (`tsx <entry>`), each on a free port of its own. */
export type ServiceKind = 'api' | 'mcp' | 'console' | 'worker';

const ENTRY: Record<ServiceKind, string> = {
  api: 'services/api/src/server.ts',
  mcp: 'services/mcp/src/server.ts',
  console: 'services/console/src/server.ts',
  worker: 'services/worker/src/main.ts',
};
const PORT_VARIABLE: Record<Exclude<ServiceKind, 'worker'>, string> = {
  api: 'API_PORT',
  mcp: 'MCP_PORT',
  console: 'CONSOLE_PORT',
};

export type RunningService = { kind: ServiceKind; process: RunningProcess; base: string };

export async function startService(kind: ServiceKind, env: Record<string, string>): Promise<RunningService> {
  if (kind === 'worker') {
    const worker = startProcess(ENTRY.worker, [], env);
    await worker.waitForOutput(/worker started/, 120_000);
    return { kind, process: worker, base: '' };
  }
  const port = await freePort();
  const server = startProcess(ENTRY[kind], [], { ...env, [PORT_VARIABLE[kind]]: String(port) });
  await server.waitForOutput(/Server listening/, 120_000);
  return { kind, process: server, base: `http://127.0.0.1:${port}` };
}

/** A key named `name`, of an account of its own, created in the given database. */
export async function createNamedKey(db: Database, name: string) {
  const account = await ensureAccount(db, `${name}-${Date.now()}@example.com`);
  return createApiKey(db, { accountId: account.id, name });
}

/** The secret of a key for the API's load. */
export async function createLoadKey(db: Database): Promise<string> {
  return (await createNamedKey(db, 'load')).secret;
}

/** Milliseconds from `signal` until the process has exited, and its exit code. */
export async function timeToExit(
  process: RunningProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ ms: number; code: number | null }> {
  const started = performance.now();
  const code = await process.stop(signal);
  return { ms: performance.now() - started, code };
}

/**
 * Steady load (the shared `startLoad`) that also times every request: a fault may turn answers into
 * 503 problems, but each must come quickly.
 */
export function startTimedLoad(
  request: () => Promise<Response>,
  options: { concurrency?: number; pauseMs?: number } = {},
): { stop: () => Promise<{ tally: ResponseTally; slowestMs: number; count: number }> } {
  let slowestMs = 0;
  let count = 0;
  const load = startLoad(async () => {
    const started = performance.now();
    try {
      return await request();
    } finally {
      slowestMs = Math.max(slowestMs, performance.now() - started);
      count += 1;
    }
  }, options);
  return {
    stop: async () => {
      const tally = await load.stop();
      return { tally, slowestMs, count };
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Search requests over the sample data's countries, as a client of the API would send them. */
export function searchRequest(base: string, secret: string): () => Promise<Response> {
  const countries = ['de', 'es', 'fr', 'gb', 'it', 'mx', 'pt'];
  let next = 0;
  return () => {
    const country = countries[next++ % countries.length] ?? 'de';
    return fetch(`${base}/api/v1/doctors?country=${country}&limit=10`, {
      headers: { 'x-api-key': secret },
      signal: AbortSignal.timeout(15_000),
    });
  };
}

/** The last lines each process printed, for a failed scenario's report. */
export function lastOutput(services: ReadonlyArray<RunningService>, characters = 3_000): string {
  return services
    .map(
      (service) =>
        `--- ${service.kind} (exit ${service.process.child.exitCode ?? 'running'}):\n${service.process.output().slice(-characters)}`,
    )
    .join('\n');
}
