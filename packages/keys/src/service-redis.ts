import { Redis } from 'ioredis';

/**
 * The Redis connection of a process that checks or writes keys (the API, the MCP server, the console,
 * the keys CLI). A rate-limit, throttle or bar must not hold a request or a command for long: a command
 * gets one retry and a second at most (a paused or partitioned Redis keeps the connection open and never
 * answers), and reconnects are tried every half second at most, so an outage is a 503 (or a CLI's
 * error) within about two seconds (DESIGN, "Operating under faults").
 */
export function createServiceRedis(url: string, options: { autoPipelining: boolean }): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 50, 500),
    enableAutoPipelining: options.autoPipelining,
  });
}

export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/**
 * Whether an error means Redis could not be reached or did not answer in time (the callers fail
 * closed: a 503, or a CLI's error). ioredis does not export its connection error classes.
 */
export function isRedisUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    /Connection is closed|Stream isn't writeable|Command timed out/.test(error.message)
  );
}
