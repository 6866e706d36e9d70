import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Database } from '@directory/database';
import type { SearchClient } from '@directory/search-index';

/** One dependency a process needs to do its work; `check` throws (or rejects) when it does not answer. */
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

export function redisCheck(redis: Redis): DependencyCheck {
  return {
    name: 'redis',
    check: async () => {
      // A disconnected client queues commands; refuse at once instead of waiting for a reconnect.
      if (redis.status !== 'ready') throw new Error(`connection ${redis.status}`);
      await redis.ping();
    },
  };
}

/** The read alias answers a search (the cluster is up and the alias points at a searchable index). */
export function elasticsearchCheck(client: SearchClient, alias: string): DependencyCheck {
  return {
    name: 'elasticsearch',
    check: () =>
      client.search(
        { index: alias, size: 0, track_total_hits: false },
        { maxRetries: 0, requestTimeout: 5_000 },
      ),
  };
}
