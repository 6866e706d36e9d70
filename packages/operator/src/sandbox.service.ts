import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { ingestBatch, type IngestItem } from '@directory/ingest';
import { generateEvents } from '@directory/sample-data';
import {
  concreteIndices,
  countServedDocuments,
  ensureDoctorsIndex,
  storeMarksIndexName,
  type SearchClient,
} from '@directory/search-index';

/**
 * The sandbox's sample data unless the operator asks for another: the same records on every load. The
 * seed is its own, so the sandbox's records are not those `npm run demo` makes live (seed 42).
 */
export const SANDBOX_DEFAULTS = Object.freeze({ events: 5_000, seed: 7 });

// Events per pipeline batch, as the worker takes them from the queue.
const BATCH_EVENTS = 500;

export type SandboxLoadOptions = {
  /** The sandbox's own database, migrated (never the live one: see SandboxHoldsAccountsError). */
  db: Database;
  search: { client: SearchClient; alias: string };
  siteOrigin: string;
  events: number;
  seed: number;
  /** Called after each batch with the events done so far. */
  onProgress?: (eventsDone: number) => void;
};

export type SandboxLoadSummary = {
  events: number;
  stored: number;
  duplicates: number;
  deadLettered: number;
  /** Records the sandbox serves once loaded (its search and changes feed answer exactly these). */
  served: number;
};

/** The database named as the sandbox holds accounts or keys: it is a live database, and is left alone. */
export class SandboxHoldsAccountsError extends Error {
  constructor() {
    super(
      'the sandbox database holds accounts or API keys, so it is not a sandbox (is SANDBOX_DATABASE_URL the live database?); nothing was changed',
    );
    this.name = 'SandboxHoldsAccountsError';
  }
}

/**
 * Replaces the sandbox dataset with the deterministic sample data (`@directory/sample-data`, the same
 * events for the same seed and count): empties the sandbox's tables and index, then sends the events
 * through the real pipeline (validation, event store, fold, projection), so the sandbox answers exactly
 * as the live directory would for those events. Readers see the sandbox fill up while it loads; a
 * changes-feed consumer of the sandbox starts over afterwards (its old cursors name the old dataset).
 */
export async function loadSandbox(options: SandboxLoadOptions): Promise<SandboxLoadSummary> {
  const { db, search } = options;
  await emptySandboxTables(db);
  await emptySandboxIndex(search.client, search.alias);
  const summary: SandboxLoadSummary = { events: 0, stored: 0, duplicates: 0, deadLettered: 0, served: 0 };
  const deps = { db, search, siteOrigin: options.siteOrigin };
  let batch: IngestItem[] = [];
  const send = async () => {
    const result = await ingestBatch(deps, batch);
    summary.events += result.received;
    summary.stored += result.stored;
    summary.duplicates += result.duplicates;
    summary.deadLettered += result.deadLettered;
    batch = [];
    options.onProgress?.(summary.events);
  };
  for (const raw of generateEvents({ count: options.events, seed: options.seed })) {
    batch.push({ raw, source: `sandbox seed ${options.seed}` });
    if (batch.length === BATCH_EVENTS) await send();
  }
  if (batch.length > 0) await send();
  await search.client.indices.refresh({ index: search.alias });
  summary.served = await countServedDocuments(search.client, search.alias);
  return summary;
}

/**
 * Every table of the sandbox's schema but the migrations' own, emptied in one statement. Refused, with
 * nothing changed, when the database holds accounts or keys: those live only in the live database.
 */
async function emptySandboxTables(db: Database): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const holders = await sql<{ found: boolean }>`
      select exists (select 1 from accounts) or exists (select 1 from api_keys) as found`.execute(trx);
    if (holders.rows[0]?.found === true) throw new SandboxHoldsAccountsError();
    const tables = await sql<{ name: string }>`
      select quote_ident(tablename) as name from pg_tables
      where schemaname = current_schema() and tablename not like 'kysely\\_%'`.execute(trx);
    const names = tables.rows.map((row) => row.name).join(', ');
    await sql`truncate table ${sql.raw(names)} restart identity cascade`.execute(trx);
  });
}

/** Deletes the sandbox's indices (by name: wildcard deletes are refused by default) and starts a new one. */
async function emptySandboxIndex(client: SearchClient, alias: string): Promise<void> {
  const indices = [...(await concreteIndices(client, alias)), storeMarksIndexName(alias)];
  await client.indices.delete({ index: indices, ignore_unavailable: true });
  await ensureDoctorsIndex(client, alias);
}
