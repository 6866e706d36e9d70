import pg from 'pg';
import { loadConfig } from '@directory/config';

export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs work on a short-lived connection to the `postgres` maintenance database (create / drop). */
export async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: withDatabase(loadConfig().DATABASE_URL, 'postgres') });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
