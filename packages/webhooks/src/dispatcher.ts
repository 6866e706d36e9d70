import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { COUNTRY_CODES, type CountryCode, type FeedPosition, type FeedRow } from '@directory/domain';
import { readChanges } from '@directory/event-store';
import { changeEventType, changePayload } from './payloads.js';
import type { WebhookQueue } from './queue.js';
import { generateMessageId } from './signing.js';

/** Changes read per country per transaction. */
export const DISPATCH_BATCH = 200;
const MAX_BATCHES_PER_PASS = 10;

/**
 * Starts a country's feed position at the feed's current end (the changes of every transaction that
 * has not finished yet, and every later one, are still ahead), unless it has one. Called when an
 * endpoint starts following the country, so what changes from then on is delivered.
 */
export async function ensureFeedPosition(db: Database, country: CountryCode): Promise<void> {
  await sql`
    insert into webhook_feed_positions (country, xid, place_id)
    values (${country}, pg_snapshot_xmin(pg_current_snapshot()), '')
    on conflict (country) do nothing`.execute(db);
}

/** The countries some enabled endpoint follows. */
async function followedCountries(db: Database): Promise<CountryCode[]> {
  const result = await sql<{ country: string }>`
    select distinct unnest(countries) as country from webhook_endpoints where enabled`.execute(db);
  const known = new Set<string>(COUNTRY_CODES);
  return result.rows
    .map((row) => row.country)
    .filter((country): country is CountryCode => known.has(country));
}

/**
 * One pass over the followed countries: per country, in one transaction, takes its position (skipping
 * a country another dispatcher holds), reads the changes after it, inserts a delivery per change and
 * enabled endpoint following the country, and moves the position past them. The jobs are queued after
 * the commit; a crash in between leaves pending deliveries that `requeueStalePending` queues.
 * Returns the deliveries created.
 */
export async function dispatchOnce(
  deps: { db: Database; queue: WebhookQueue },
  options: { batchSize?: number } = {},
): Promise<number> {
  const { db, queue } = deps;
  // No enabled follower: the position is dropped, so a country followed again starts at its end
  // instead of delivering what changed while nobody followed it.
  await sql`
    delete from webhook_feed_positions as position
     where not exists (select 1 from webhook_endpoints
                        where enabled and position.country = any(countries))`.execute(db);
  let created = 0;
  const limit = options.batchSize ?? DISPATCH_BATCH;
  const positions = await readPositions(db);
  for (const country of await followedCountries(db)) {
    const position = positions.get(country);
    if (position === undefined) {
      await ensureFeedPosition(db, country);
    } else if ((await readChanges(db, { country, after: position, limit: 1 })).length === 0) {
      // Nothing new: no locking transaction (each would take a transaction id) while the feed is idle.
      continue;
    }
    // A backlog is read in several batches (each its own short transaction), a bounded number per pass.
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch++) {
      const { ids, changes } = await dispatchCountry(db, country, limit);
      await queue.enqueue(ids);
      created += ids.length;
      if (changes < limit) break;
    }
  }
  return created;
}

/** Every country's position, read without locks (only to see whether anything is new). */
async function readPositions(db: Database): Promise<Map<string, FeedPosition>> {
  const result = await sql<{ country: string; xid: string; place_id: string }>`
    select country, xid::text as xid, place_id from webhook_feed_positions`.execute(db);
  return new Map(result.rows.map((row) => [row.country, { xid: row.xid, placeId: row.place_id }]));
}

async function dispatchCountry(
  db: Database,
  country: CountryCode,
  limit: number,
): Promise<{ ids: string[]; changes: number }> {
  return db.transaction().execute(async (trx) => {
    const position = await sql<{ xid: string; place_id: string }>`
      select xid::text as xid, place_id from webhook_feed_positions
       where country = ${country} for update skip locked`.execute(trx);
    const at = position.rows[0];
    if (at === undefined) return { ids: [], changes: 0 };
    const changes = await readChanges(trx, { country, after: { xid: at.xid, placeId: at.place_id }, limit });
    const last = changes[changes.length - 1];
    if (last === undefined) return { ids: [], changes: 0 };
    const endpoints = await trx
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('enabled', '=', true)
      .where(sql<boolean>`${country} = any(countries)`)
      .execute();
    const rows = changes.flatMap((change) =>
      endpoints.map((endpoint) => deliveryRow(endpoint.id, country, change)),
    );
    for (let start = 0; start < rows.length; start += 500) {
      await trx
        .insertInto('webhook_deliveries')
        .values(rows.slice(start, start + 500))
        .execute();
    }
    await sql`
      update webhook_feed_positions set xid = ${last.position.xid}::xid8, place_id = ${last.position.placeId}
       where country = ${country}`.execute(trx);
    return { ids: rows.map((row) => row.id), changes: changes.length };
  });
}

function deliveryRow(endpointId: string, country: CountryCode, change: FeedRow) {
  const event = {
    placeId: change.position.placeId,
    country,
    version: change.version,
    changedAt: change.changedAt,
    doctor: change.served ? change.doctor : null,
  };
  return {
    id: generateMessageId(),
    endpoint_id: endpointId,
    event_type: changeEventType(event),
    place_id: event.placeId,
    place_version: event.version,
    payload: changePayload(event),
    last_status_code: null,
    last_error: null,
    last_latency_ms: null,
    changed_at: new Date(change.changedAt),
  };
}

/**
 * Queues again the deliveries that were never attempted a while after they were made: their job was
 * lost (a crash between the dispatcher's commit and its enqueue, a Redis that lost its data). Queueing
 * one whose job exists is harmless (the job id is the delivery id).
 */
export async function requeueStalePending(
  deps: { db: Database; queue: WebhookQueue },
  options: { olderThanMs?: number; limit?: number } = {},
): Promise<number> {
  const before = new Date(Date.now() - (options.olderThanMs ?? 60_000));
  const rows = await deps.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(options.limit ?? 1_000)
    .execute();
  await deps.queue.enqueue(rows.map((row) => row.id));
  return rows.length;
}

export type Dispatcher = { close: () => Promise<void> };

/**
 * The dispatcher loop: a pass every `pollMs` (sooner while a pass fills whole batches), and the
 * re-enqueue of stale pending deliveries every `requeueEveryMs`. Errors are reported and the loop goes
 * on: an unavailable database or Redis delays deliveries, nothing is lost (the position moves only with
 * the deliveries' commit).
 */
export function startDispatcher(
  deps: { db: Database; queue: WebhookQueue },
  options: { pollMs: number; requeueEveryMs?: number; onError?: (error: unknown) => void },
): Dispatcher {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastRequeue = Date.now();
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      await dispatchOnce(deps);
      if (Date.now() - lastRequeue >= (options.requeueEveryMs ?? 60_000)) {
        lastRequeue = Date.now();
        await requeueStalePending(deps);
      }
    } catch (error) {
      options.onError?.(error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().then(schedule);
    }, options.pollMs);
  };
  schedule();
  return {
    close: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
