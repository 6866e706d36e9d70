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
import { SandboxRefusedError, sampleEventIds, sandboxRefusal, type SandboxMarker } from './sandbox-guard.js';

/**
 * The sandbox's sample data unless the operator asks for another: the same records on every load. The
 * seed is its own, so the sandbox's records are not those `npm run demo` makes live (seed 42).
 */
export const SANDBOX_DEFAULTS = Object.freeze({ events: 5_000, seed: 7 });

// Events per pipeline batch, as the worker takes them from the queue.
const BATCH_EVENTS = 500;

export type SandboxLoadOptions = {
  /** The sandbox's own database, migrated (never the live one: see sandbox-guard.ts). */
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

/**
 * Replaces the sandbox dataset with the deterministic sample data (`@directory/sample-data`, the same
 * events for the same seed and count): empties the sandbox's tables and index, then sends the events
 * through the real pipeline (validation, event store, fold, projection), so the sandbox answers exactly
 * as the live directory would for those events. Readers see the sandbox fill up while it loads; a
 * changes-feed consumer of the sandbox starts over afterwards (its old cursors name the old dataset).
 */
export async function loadSandbox(options: SandboxLoadOptions): Promise<SandboxLoadSummary> {
  const { db, search } = options;
  await emptySandboxTables(db, { sampleSeed: options.seed, sampleEvents: options.events });
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
 * Every table of the sandbox's schema but the migrations' own and the marker, emptied in one statement,
 * and the marker set to the sample about to be loaded. Refused, with nothing changed, unless the database
 * is the loader's own (sandbox-guard.ts). Events, accounts and keys are locked against writes until the
 * end, so nothing written between the check and the truncation is lost.
 */
async function emptySandboxTables(db: Database, next: SandboxMarker): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`lock table events, accounts, api_keys, sandbox_marker in share mode`.execute(trx);
    const facts = await sql<{ holds_accounts: boolean; holds_events: boolean }>`
      select exists (select 1 from accounts) or exists (select 1 from api_keys) as holds_accounts,
             exists (select 1 from events) as holds_events`.execute(trx);
    const row = await trx
      .selectFrom('sandbox_marker')
      .select(['sample_seed', 'sample_events'])
      .executeTakeFirst();
    const marker =
      row === undefined ? null : { sampleSeed: row.sample_seed, sampleEvents: row.sample_events };
    const refusal = sandboxRefusal({
      holdsAccounts: facts.rows[0]?.holds_accounts === true,
      holdsEvents: facts.rows[0]?.holds_events === true,
      marker,
      holdsForeignEvents: marker !== null && (await holdsEventsOutside(trx, marker)),
    });
    if (refusal !== null) throw new SandboxRefusedError(refusal);
    const tables = await sql<{ name: string }>`
      select quote_ident(tablename) as name from pg_tables
      where schemaname = current_schema()
        and tablename not like 'kysely\\_%' and tablename <> 'sandbox_marker'`.execute(trx);
    const names = tables.rows.map((table) => table.name).join(', ');
    await sql`truncate table ${sql.raw(names)} restart identity cascade`.execute(trx);
    // Marked before any event is loaded: a load cut short leaves only events of the marked sample.
    await trx
      .insertInto('sandbox_marker')
      .values({ sample_seed: next.sampleSeed, sample_events: next.sampleEvents })
      .onConflict((conflict) =>
        conflict.column('only_row').doUpdateSet({
          sample_seed: next.sampleSeed,
          sample_events: next.sampleEvents,
          marked_at: sql`now()`,
        }),
      )
      .execute();
  });
}

/** Whether the database holds an event that is not one of the marked sample's. */
async function holdsEventsOutside(trx: Database, marker: SandboxMarker): Promise<boolean> {
  const ids = sampleEventIds(generateEvents({ count: marker.sampleEvents, seed: marker.sampleSeed }));
  const found = await sql<{ found: boolean }>`
    select exists (select 1 from events where event_id <> all(${ids}::text[])) as found`.execute(trx);
  return found.rows[0]?.found === true;
}

/** Deletes the sandbox's indices (by name: wildcard deletes are refused by default) and starts a new one. */
async function emptySandboxIndex(client: SearchClient, alias: string): Promise<void> {
  const indices = [...(await concreteIndices(client, alias)), storeMarksIndexName(alias)];
  await client.indices.delete({ index: indices, ignore_unavailable: true });
  await ensureDoctorsIndex(client, alias);
}
