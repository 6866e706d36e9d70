import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createQuietWebhookEndpoint, createTestDatabase, type TestDatabase } from '@directory/testing';
import { PRUNE_TASK, pruneDeliveries, type PruneOptions } from '../src/retention.js';
import { lastFinishedAt, readDeliveriesTableSize } from '../src/retention.repository.js';

let database: TestDatabase;
let endpointId: string;

/** `count` deliveries of one status, made `ageDays` days ago (the database's clock). */
async function addDeliveries(status: string, count: number, ageDays: number): Promise<void> {
  await sql`
    insert into webhook_deliveries (id, endpoint_id, event_type, place_id, place_version, payload, status,
                                    created_at)
    select 'msg_' || ${status} || '_' || ${ageDays} || '_' || n, ${endpointId}, 'doctor.upserted',
           'place-' || ${status} || '-' || ${ageDays} || '-' || n, 1, '{}', ${status},
           now() - make_interval(days => ${ageDays})
      from generate_series(1, ${count}) as n`.execute(database.db);
}

async function countByStatus(): Promise<Record<string, number>> {
  const result = await sql<{ status: string; age: string; count: string }>`
    select status, case when created_at < now() - interval '14 days' then 'old' else 'recent' end as age,
           count(*)::text as count
      from webhook_deliveries group by 1, 2`.execute(database.db);
  return Object.fromEntries(result.rows.map((row) => [`${row.status}/${row.age}`, Number(row.count)]));
}

/** Lets the next claim succeed: the previous run's claim is made to have ended. */
async function endClaims(): Promise<void> {
  await sql`update maintenance_claims set claimed_until = now() - interval '1 second'`.execute(database.db);
}

function options(overrides: Partial<PruneOptions> = {}): PruneOptions {
  return {
    retentionDays: 14,
    claimMs: 600_000,
    holder: `spec-${randomUUID()}`,
    now: () => new Date(),
    ...overrides,
  };
}

beforeAll(async () => {
  database = await createTestDatabase('webhook-retention');
  endpointId = await createQuietWebhookEndpoint(database.db);
});

beforeEach(async () => {
  await sql`delete from webhook_deliveries`.execute(database.db);
  await sql`delete from maintenance_claims`.execute(database.db);
});

afterAll(async () => {
  await database.drop();
});

describe('webhook delivery retention', () => {
  it('deletes old final deliveries in bounded batches and keeps pending and recent ones', async () => {
    await addDeliveries('delivered', 120, 20);
    await addDeliveries('failed', 70, 15);
    await addDeliveries('abandoned', 60, 30);
    await addDeliveries('pending', 40, 40);
    await addDeliveries('delivered', 30, 13);
    await addDeliveries('failed', 10, 1);

    const batches: number[] = [];
    const run = await pruneDeliveries(
      database.db,
      options({ batchSize: 100, onBatch: (rows) => batches.push(rows) }),
    );

    expect(run).toEqual({ deletedRows: 250, batches: 3 });
    expect(batches).toEqual([100, 100, 50]);
    expect(await countByStatus()).toEqual({
      'pending/old': 40,
      'delivered/recent': 30,
      'failed/recent': 10,
    });
    expect(await lastFinishedAt(database.db, PRUNE_TASK)).toBeInstanceOf(Date);
  });

  it('follows the configured retention', async () => {
    await addDeliveries('delivered', 5, 3);
    await addDeliveries('delivered', 5, 1);

    await pruneDeliveries(database.db, options({ retentionDays: 2 }));

    const left = await sql<{ count: string }>`select count(*)::text as count from webhook_deliveries`.execute(
      database.db,
    );
    expect(Number(left.rows[0]!.count)).toBe(5);
  });

  it('runs in one worker at a time: a concurrent pruner and one within the interval get nothing', async () => {
    await addDeliveries('delivered', 50, 20);

    const [first, second] = await Promise.all([
      pruneDeliveries(database.db, options()),
      pruneDeliveries(database.db, options()),
    ]);
    const runs = [first, second].filter((run) => run !== null);
    expect(runs).toEqual([{ deletedRows: 50, batches: 1 }]);

    await addDeliveries('delivered', 5, 20);
    expect(await pruneDeliveries(database.db, options())).toBeNull();

    // Once the claim has ended (a worker that died holding it, or the next interval), another worker runs.
    await endClaims();
    expect(await pruneDeliveries(database.db, options())).toEqual({ deletedRows: 5, batches: 1 });
  });

  it('skips a delivery another transaction holds instead of waiting for it', async () => {
    await addDeliveries('delivered', 20, 20);
    const held = 'msg_delivered_20_1';

    await database.db.transaction().execute(async (trx) => {
      // As the delivery worker's update of a row would: the row stays locked while the prune runs.
      await sql`select id from webhook_deliveries where id = ${held} for update`.execute(trx);
      const run = await pruneDeliveries(database.db, options());
      expect(run).toEqual({ deletedRows: 19, batches: 1 });
    });

    await endClaims();
    expect(await pruneDeliveries(database.db, options())).toEqual({ deletedRows: 1, batches: 1 });
  });

  it('finds old final deliveries through the partial index, not by reading the table', async () => {
    await addDeliveries('pending', 200, 40);
    await sql`analyze webhook_deliveries`.execute(database.db);
    const plan = await sql<{ 'QUERY PLAN': string }>`
      explain select ctid from webhook_deliveries
       where status in ('delivered', 'failed', 'abandoned') and created_at < now() - interval '14 days'
       order by created_at limit 1000`.execute(database.db);
    expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain(
      'webhook_deliveries_final_created',
    );
  });

  it("reads the table's size from the catalog", async () => {
    await addDeliveries('delivered', 300, 1);
    await sql`analyze webhook_deliveries`.execute(database.db);

    const size = await readDeliveriesTableSize(database.db);

    expect(size.estimatedRows).toBe(300);
    expect(size.bytes).toBeGreaterThan(8_192);
  });
});
