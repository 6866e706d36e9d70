import { sql } from 'kysely';
import type { RedisClient } from '@directory/config';
import type { Database } from '@directory/database';

/**
 * One dependency a process needs to do its work, by the name /readyz reports; `check` throws (or
 * rejects) when it does not answer. Whoever holds the client supplies the check (postgresCheck and
 * redisCheck are here; the Elasticsearch one is search-index's), so readiness loads no search client.
 */
export type DependencyCheck = { name: string; check: () => Promise<unknown> };

export type DependencyStatus = { name: string; ready: boolean; reason?: string; durationMs: number };
export type ReadinessReport = { ready: boolean; dependencies: DependencyStatus[] };

/** Checks every dependency concurrently, each bounded by `timeoutMs`: a hung one is a failed one. */
export async function checkReadiness(
  checks: ReadonlyArray<DependencyCheck>,
  timeoutMs: number,
): Promise<ReadinessReport> {
  const dependencies = await Promise.all(checks.map((check) => runCheck(check, timeoutMs)));
  return { ready: dependencies.every((dependency) => dependency.ready), dependencies };
}

async function runCheck(dependency: DependencyCheck, timeoutMs: number): Promise<DependencyStatus> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([dependency.check(), timeout]);
    return { name: dependency.name, ready: true, durationMs: elapsed(started) };
  } catch (error) {
    return { name: dependency.name, ready: false, reason: reasonOf(error), durationMs: elapsed(started) };
  } finally {
    clearTimeout(timer);
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

// Only the error's first line: driver messages can be long, and they never carry credentials here
// (connection strings are not part of pg, ioredis or Elasticsearch client error messages).
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 200) || 'failed';
}

export function postgresCheck(db: Database): DependencyCheck {
  return { name: 'postgresql', check: () => sql`select 1`.execute(db) };
}

export function redisCheck(redis: RedisClient): DependencyCheck {
  return {
    name: 'redis',
    check: async () => {
      // A disconnected client queues commands; refuse at once instead of waiting for a reconnect.
      if (redis.status !== 'ready') throw new Error(`connection ${redis.status}`);
      await redis.ping();
    },
  };
}

/** What /readyz reports once the process is stopping, in the shape of a failing dependency. */
export const DRAINING_REPORT: ReadinessReport = {
  ready: false,
  dependencies: [{ name: 'shutdown', ready: false, reason: 'draining', durationMs: 0 }],
};

// Process-wide, as a stop signal is: every readiness source of the process fails from then on.
let stopping = false;

/**
 * Called by the process's stop handler (serveUntilSignal, the worker's shutdown) on SIGTERM or SIGINT:
 * from then on /readyz fails at once, without asking the dependencies, so a load balancer takes the
 * process out of rotation while it still serves for its drain (docs/operations.md, "Shutdown and
 * draining"). There is no way back: a stopping process does not become ready again.
 */
export function markStopping(): void {
  stopping = true;
}

export function isStopping(): boolean {
  return stopping;
}
