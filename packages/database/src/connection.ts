import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseSchema } from './schema.js';

// Store positions are bigserial; they stay far below 2^53, so numbers are safe and simpler than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Database = Kysely<DatabaseSchema>;

export function createDatabase(
  connectionString: string,
  options: { maxConnections?: number } = {},
): Database {
  const pool = new pg.Pool({ connectionString, max: options.maxConnections ?? 10 });
  return new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
}

/** Creates the database named in the URL if it does not exist yet (connecting to the `postgres` database). */
export async function ensureDatabaseExists(connectionString: string): Promise<boolean> {
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unsupported database name in DATABASE_URL: ${name}`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
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
