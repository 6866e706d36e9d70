import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseSchema } from './schema.js';

// Store positions are bigserial; they stay far below 2^53, so numbers are safe and simpler than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Database = Kysely<DatabaseSchema>;

/**
 * Every pool has bounds, so a database that stops answering (stopped, paused, partitioned) surfaces as an
 * error a caller can handle, never a hang: a connection (or a wait for a free one) gives up after
 * `connectTimeoutMs`; a statement is cancelled by the server after `statementTimeoutMs` and abandoned by
 * the client shortly after (a paused server cancels nothing); a session idle inside a transaction is
 * ended by the server after `idleInTransactionTimeoutMs` (its locks released).
 */
export type DatabaseTimeouts = {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
};

/** Safe for batch work (appends, reindex); request-serving processes pass shorter ones from the config. */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = Object.freeze({
  connectTimeoutMs: 2_000,
  statementTimeoutMs: 60_000,
  idleInTransactionTimeoutMs: 60_000,
});

// The client waits this much longer than the server's statement timeout, so a live server's own
// cancellation (a clear error) wins over the client's read timeout.
const CLIENT_GRACE_MS = 250;

export function createDatabase(
  connectionString: string,
  options: { maxConnections?: number; timeouts?: Partial<DatabaseTimeouts> } = {},
): Database {
  const timeouts = { ...DEFAULT_DATABASE_TIMEOUTS, ...options.timeouts };
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
    query_timeout: timeouts.statementTimeoutMs + CLIENT_GRACE_MS,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
    // A dead peer is noticed by the kernel instead of waiting on a half-open socket for ever.
    keepAlive: true,
    // No JIT compilation: our statements are short, and PostgreSQL compiled any whose estimated cost
    // crossed its threshold anew on every run. The worker's lag sample and sweep paid 70-180 ms of
    // compilation each for a few ms of work, every few seconds (docs/benchmarks.md).
    options: '-c jit=off',
  });
  // A server that goes away (stopped, restarted, connection cut) makes its clients emit 'error': on the
  // pool for an idle client, on the client itself for one checked out between two queries. Unheard, either
  // kills the process; heard, the client is dropped from the pool and the caller's query fails instead.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
}

/** Creates the database named in the URL if it does not exist yet (connecting to the `postgres` database). */
export async function ensureDatabaseExists(connectionString: string): Promise<boolean> {
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unsupported database name in DATABASE_URL: ${name}`);
  url.pathname = '/postgres';
  const client = new pg.Client({
    connectionString: url.toString(),
    connectionTimeoutMillis: DEFAULT_DATABASE_TIMEOUTS.connectTimeoutMs,
  });
  await client.connect();
  try {
    const existing = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (existing.rowCount) return false;
    await client.query(`create database "${name}"`);
    return true;
  } finally {
    await client.end();
  }
}

// pg reports its own timeouts and lost connections as plain Errors without a code, so these messages
// (stable across pg 8.x) are how they are told apart from bugs.
const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];
// SQLSTATE classes 08 (connection exception), 53 (insufficient resources: too many connections — also
// PgBouncer's answer when full —, disk full, out of memory) and 57 (operator intervention: cancelled by
// statement timeout, shutting down, cannot connect now), and 25P03 (idle-in-transaction session timeout).
const UNAVAILABLE_SQLSTATE = /^(?:08|53|57)|^25P03$/;
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
]);

/**
 * True when an error means the database did not answer (down, paused, too slow, connection lost): an
 * outage to wait out or answer with 503, not a fault in the request or in our code.
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET_CODES.has(code)))
    return true;
  return UNAVAILABLE_MESSAGES.some((message) => error.message.includes(message));
}
