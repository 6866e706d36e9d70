import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { queryTracingLog } from './query-spans.js';
import type { DatabaseSchema } from './schema.js';

// Store positions are bigserial; they stay far below 2^53, so numbers are safe and simpler than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Database = Kysely<DatabaseSchema>;

/**
 * Every pool has bounds, so a database that stops answering (stopped, paused, partitioned) surfaces as an
 * error a caller can handle, never a hang: a connection (or a wait for a free one) gives up after
 * `connectTimeoutMs`; the client abandons a statement after `statementTimeoutMs` (plus a short grace).
 * The server-side bounds (statement timeout, idle-in-transaction timeout, no JIT) are not sent by the
 * client: they are the database's defaults, set by `applySessionDefaults` (see there for why).
 * `idleInTransactionTimeoutMs` is what `applySessionDefaults` writes.
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

// The client waits this much longer than its statement timeout, so a live server's own cancellation
// (a clear error, when the server's bound is the same) wins over the client's read timeout.
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
    // No start-up parameters (statement_timeout, options=-c …): a transaction-mode pooler (PgBouncer)
    // refuses them. The client-side read timeout is the bound that holds even for a paused server.
    query_timeout: timeouts.statementTimeoutMs + CLIENT_GRACE_MS,
    // A dead peer is noticed by the kernel instead of waiting on a half-open socket for ever.
    keepAlive: true,
  });
  // A server that goes away (stopped, restarted, connection cut) makes its clients emit 'error': on the
  // pool for an idle client, on the client itself for one checked out between two queries. Unheard, either
  // kills the process; heard, the client is dropped from the pool and the caller's query fails instead.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const log = queryTracingLog(connectionString);
  return new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
}

/** An operator command's work on one connection of its own, closed afterwards whatever the work did. */
export async function withCommandDatabase<T>(
  connectionString: string,
  work: (db: Database) => Promise<T>,
): Promise<T> {
  const db = createDatabase(connectionString, { maxConnections: 1 });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

export type SessionDefaults = { statementTimeoutMs: number; idleInTransactionTimeoutMs: number };

/**
 * Makes the server-side session settings defaults of the connected database (`alter database … set`),
 * which every new server connection gets at its start, whoever opens it: our pools, a transaction-mode
 * pooler's server connections (which refuse start-up parameters and must not carry `set` between
 * clients), an operator's psql. Idempotent; applies to sessions opened afterwards.
 *
 * - `jit = off`: our statements are short, and PostgreSQL compiled any whose estimated cost crossed its
 *   threshold anew on every run. The worker's lag sample and sweep paid far more in compilation than in
 *   work, every few seconds (measured by `npm run bench:ingest`, docs/benchmarks.md, "What was tried").
 * - `statement_timeout`: the longest statement any process may run (the batch work's bound); request
 *   processes abandon theirs sooner on the client side (`createDatabase`'s `statementTimeoutMs`).
 * - `idle_in_transaction_session_timeout`: a session idle inside a transaction is ended, its locks freed.
 *
 * Needs the database's owner (the role that migrates it). Settings of a role of its own
 * (`alter role … set statement_timeout`) override these, e.g. a shorter one for request processes.
 */
export async function applySessionDefaults<Schema>(
  db: Kysely<Schema>,
  defaults: SessionDefaults = {
    statementTimeoutMs: DEFAULT_DATABASE_TIMEOUTS.statementTimeoutMs,
    idleInTransactionTimeoutMs: DEFAULT_DATABASE_TIMEOUTS.idleInTransactionTimeoutMs,
  },
): Promise<void> {
  for (const value of [defaults.statementTimeoutMs, defaults.idleInTransactionTimeoutMs]) {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a timeout in milliseconds: ${value}`);
  }
  // `alter database` takes no parameters; the values are checked integers, the name is quoted by format().
  await sql`do $$ begin
    execute format('alter database %I set jit = off', current_database());
    execute format('alter database %I set statement_timeout = ${sql.raw(String(defaults.statementTimeoutMs))}', current_database());
    execute format('alter database %I set idle_in_transaction_session_timeout = ${sql.raw(String(defaults.idleInTransactionTimeoutMs))}', current_database());
  end $$`.execute(db);
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
