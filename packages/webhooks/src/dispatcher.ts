import { sql, type RawBuilder } from 'kysely';
import type { Database } from '@directory/database';
import { COUNTRY_CODES, type CountryCode, type FeedPosition, type FeedRow } from '@directory/domain';
import { readChanges } from '@directory/event-store';
import { changeEventType, changePayload } from './payloads.js';
import { abandonPending } from './schedule.js';
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

/** Whether the account (an SQL expression) holds an active live key; sandbox keys do not count. */
export function holdsActiveLiveKey(account: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from api_keys k
                               where k.account_id = ${account} and k.prefix like 'dk\\_live\\_%'
                                 and k.revoked_at is null and (k.expires_at is null or k.expires_at > now()))`;
}

/**
 * The condition an endpoint must meet to be sent anything (`e` is the endpoint): enabled, its account
 * not blocked by an operator, and holding an active live key — webhooks carry live records, so an
 * account with only revoked, expired or sandbox keys receives none.
 */
export const RECEIVING_ENDPOINT = sql<boolean>`
  e.enabled
  and not exists (select 1 from webhook_account_blocks b where b.account_id = e.account_id)
  and ${holdsActiveLiveKey(sql.ref('e.account_id'))}`;

/** The countries some enabled endpoint follows. */
async function followedCountries(db: Database): Promise<CountryCode[]> {
  const result = await sql<{ country: string }>`
    select distinct unnest(countries) as country from webhook_endpoints where enabled`.execute(db);
  const known = new Set<string>(COUNTRY_CODES);
  return result.rows
    .map((row) => row.country)
    .filter((country): country is CountryCode => known.has(country));
}

export type DispatchLimits = {
  /** Changes read per country per transaction. */
  batchSize?: number;
  /** Pending deliveries one endpoint may have; past it the endpoint is disabled (WEBHOOK_MAX_PENDING_PER_ENDPOINT). */
  maxPendingPerEndpoint: number;
  /** Pending deliveries of all endpoints together above which the dispatcher waits (WEBHOOK_MAX_PENDING). */
  maxPending: number;
  /** Told of each change set aside because its body could not be written. */
  onUnwritable?: (change: UnwritableChange) => void;
};

/** Whether the deliveries not yet made reach `limit` (counts at most that many rows). */
async function pendingReaches(db: Database, limit: number): Promise<boolean> {
  const result = await sql<{ count: string }>`
    select count(*) as count
      from (select 1 from webhook_deliveries where status = 'pending' limit ${limit}) as pending`.execute(db);
  return Number(result.rows[0]?.count ?? 0) >= limit;
}

/**
 * One pass over the followed countries: per country, in one transaction, takes its position (skipping
 * a country another dispatcher holds), reads the changes after it, writes a delivery per change and
 * receiving endpoint following the country (folded into the endpoint's untouched delivery of the same
 * place, if it has one), and moves the position past them. While the pending deliveries of all
 * endpoints reach `maxPending` it makes none: the feed keeps the changes, so waiting loses nothing.
 * Returns the deliveries written; null when it waited.
 */
export async function dispatchOnce(db: Database, limits: DispatchLimits): Promise<number | null> {
  // No enabled follower: the position is dropped, so a country followed again starts at its end
  // instead of delivering what changed while nobody followed it.
  await sql`
    delete from webhook_feed_positions as position
     where not exists (select 1 from webhook_endpoints
                        where enabled and position.country = any(countries))`.execute(db);
  let created = 0;
  let belowPendingLimit = false;
  const batchSize = limits.batchSize ?? DISPATCH_BATCH;
  const positions = await readPositions(db);
  for (const country of await followedCountries(db)) {
    const position = positions.get(country);
    if (position === undefined) {
      await ensureFeedPosition(db, country);
    } else if ((await readChanges(db, { country, after: position, limit: 1 })).length === 0) {
      // Nothing new: no locking transaction (each would take a transaction id) while the feed is idle.
      continue;
    }
    // Counted once per pass, and only when there is something to dispatch: an idle feed costs no count.
    if (!belowPendingLimit) {
      if (await pendingReaches(db, limits.maxPending)) return null;
      belowPendingLimit = true;
    }
    // A backlog is read in several batches (each its own short transaction), a bounded number per pass.
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch++) {
      const { written, changes } = await dispatchCountry(db, country, { ...limits, batchSize });
      created += written;
      if (changes < batchSize) break;
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
  limits: DispatchLimits & { batchSize: number },
): Promise<{ written: number; changes: number }> {
  return db.transaction().execute(async (trx) => {
    const position = await sql<{ xid: string; place_id: string }>`
      select xid::text as xid, place_id from webhook_feed_positions
       where country = ${country} for update skip locked`.execute(trx);
    const at = position.rows[0];
    if (at === undefined) return { written: 0, changes: 0 };
    const changes = await readChanges(trx, {
      country,
      after: { xid: at.xid, placeId: at.place_id },
      limit: limits.batchSize,
    });
    const last = changes[changes.length - 1];
    if (last === undefined) return { written: 0, changes: 0 };
    const { deliveries, unwritable } = deliveriesOf(country, newestPerPlace(changes));
    for (const skipped of unwritable) limits.onUnwritable?.(skipped);
    let written = 0;
    for (const endpoint of await receivingEndpoints(trx, country, limits.maxPendingPerEndpoint)) {
      if (endpoint.pending + deliveries.length > limits.maxPendingPerEndpoint) {
        await disableBacklogged(trx, endpoint.id, limits.maxPendingPerEndpoint);
        continue;
      }
      written += await writeDeliveries(
        trx,
        deliveries.map((delivery) => ({ ...delivery, id: generateMessageId(), endpoint_id: endpoint.id })),
      );
    }
    await sql`
      update webhook_feed_positions set xid = ${last.position.xid}::xid8, place_id = ${last.position.placeId}
       where country = ${country}`.execute(trx);
    return { written, changes: changes.length };
  });
}

/** Each place once, at its newest version (a batch may, in principle, carry a place twice). */
function newestPerPlace(changes: ReadonlyArray<FeedRow>): FeedRow[] {
  const byPlace = new Map<string, FeedRow>();
  for (const change of changes) {
    const seen = byPlace.get(change.position.placeId);
    if (seen === undefined || seen.version < change.version) byPlace.set(change.position.placeId, change);
  }
  return [...byPlace.values()];
}

/** The receiving endpoints that follow `country`, each with its pending deliveries (counted up to the cap). */
async function receivingEndpoints(
  db: Database,
  country: CountryCode,
  maxPendingPerEndpoint: number,
): Promise<Array<{ id: string; pending: number }>> {
  const result = await sql<{ id: string; pending: string }>`
    select e.id,
           (select count(*) from (select 1 from webhook_deliveries d
                                   where d.endpoint_id = e.id and d.status = 'pending'
                                   limit ${maxPendingPerEndpoint + 1}) as counted) as pending
      from webhook_endpoints e
     where ${country} = any(e.countries) and ${RECEIVING_ENDPOINT}`.execute(db);
  return result.rows.map((row) => ({ id: row.id, pending: Number(row.pending) }));
}

/**
 * Writes deliveries; one for a place the endpoint already has an untouched delivery of replaces that
 * one's body when it is newer (same id: it has never been sent). Returns the rows written.
 */
async function writeDeliveries(db: Database, rows: ReadonlyArray<DeliveryRow>): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 500) {
    const result = await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(start, start + 500))
      .onConflict((conflict) =>
        conflict
          .columns(['endpoint_id', 'place_id'])
          .where('status', '=', 'pending')
          .where('attempts', '=', 0)
          .where('leased_until', 'is', null)
          .doUpdateSet((eb) => ({
            event_type: eb.ref('excluded.event_type'),
            place_version: eb.ref('excluded.place_version'),
            payload: eb.ref('excluded.payload'),
            changed_at: eb.ref('excluded.changed_at'),
          }))
          .where('webhook_deliveries.place_version', '<', (eb) => eb.ref('excluded.place_version')),
      )
      .executeTakeFirst();
    written += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return written;
}

/**
 * An endpoint whose receiver fell this far behind is disabled and its pending deliveries abandoned: its
 * owner catches up from the changes feed and enables it again (the console says so).
 */
async function disableBacklogged(db: Database, endpointId: string, maxPending: number): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({
      enabled: false,
      disabled_reason: `more than ${maxPending} deliveries were waiting: catch up from the changes feed, then enable the endpoint again`,
      updated_at: new Date(),
    })
    .where('id', '=', endpointId)
    .execute();
  await abandonPending(db, endpointId);
}

/** A change the dispatcher could not write a body for (its stored document lacks what the allowlist needs). */
export type UnwritableChange = { placeId: string; version: number; country: CountryCode; error: string };

type Delivery = Omit<DeliveryRow, 'id' | 'endpoint_id'>;
type DeliveryRow = {
  id: string;
  endpoint_id: string;
  event_type: string;
  place_id: string;
  place_version: number;
  payload: string;
  last_status_code: null;
  last_error: null;
  last_latency_ms: null;
  changed_at: Date;
};

/**
 * Each change's delivery, its body written once for every endpoint. A change whose body cannot be
 * written is set aside and reported (a receiver gets it from the changes feed), so it cannot hold the
 * country's other changes back pass after pass.
 */
function deliveriesOf(
  country: CountryCode,
  changes: ReadonlyArray<FeedRow>,
): { deliveries: Delivery[]; unwritable: UnwritableChange[] } {
  const deliveries: Delivery[] = [];
  const unwritable: UnwritableChange[] = [];
  for (const change of changes) {
    const event = {
      placeId: change.position.placeId,
      country,
      version: change.version,
      changedAt: change.changedAt,
      doctor: change.served ? change.doctor : null,
      mergedInto: change.served ? null : change.mergedInto,
    };
    try {
      deliveries.push({
        event_type: changeEventType(event),
        place_id: event.placeId,
        place_version: event.version,
        payload: changePayload(event),
        last_status_code: null,
        last_error: null,
        last_latency_ms: null,
        changed_at: new Date(change.changedAt),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      unwritable.push({ placeId: event.placeId, version: event.version, country, error: message });
    }
  }
  return { deliveries, unwritable };
}

export type Dispatcher = { close: () => Promise<void> };

/**
 * The dispatcher loop: a pass every `pollMs`; `onDeliveries` after a pass that wrote some (the delivery
 * worker starts on them at once), `onWaiting` after one that waited on the pending limit. Errors are
 * reported and the loop goes on: an unavailable database delays deliveries, nothing is lost (the
 * position moves only with the deliveries' commit).
 */
export function startDispatcher(
  db: Database,
  options: DispatchLimits & {
    pollMs: number;
    onDeliveries?: () => void;
    onWaiting?: () => void;
    onError?: (error: unknown) => void;
  },
): Dispatcher {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      const written = await dispatchOnce(db, options);
      if (written === null) options.onWaiting?.();
      else if (written > 0) options.onDeliveries?.();
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
