import { sql } from 'kysely';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuietWebhookEndpoint, createTestDatabase, type TestDatabase } from '@directory/testing';
import {
  startWebhookRetention,
  webhookRetentionTasks,
  type RetentionSettings,
} from '../src/webhook-retention.js';

const SETTINGS: RetentionSettings = {
  WEBHOOK_DELIVERY_RETENTION_DAYS: 14,
  WEBHOOK_DELIVERY_PRUNE_INTERVAL_MS: 600_000,
  OPS_SAMPLE_INTERVAL_MS: 60_000,
};
const silent = { info: () => {}, warn: () => {} };
const PRUNED = 'directory_webhook_deliveries_pruned_total';

let database: TestDatabase;
let endpointId: string;

async function addDeliveries(label: string, status: string, count: number, ageDays: number): Promise<void> {
  await sql`
    insert into webhook_deliveries (id, endpoint_id, event_type, place_id, place_version, payload, status,
                                    created_at)
    select 'msg_' || ${label} || '_' || n, ${endpointId}, 'doctor.upserted', ${label} || '-' || n, 1, '{}',
           ${status}, now() - make_interval(days => ${ageDays})
      from generate_series(1, ${count}) as n`.execute(database.db);
}

async function metricValue(registry: Registry, name: string): Promise<number | undefined> {
  const metric = (await registry.getMetricsAsJSON()).find((candidate) => candidate.name === name);
  return metric?.values[0]?.value;
}

beforeAll(async () => {
  database = await createTestDatabase('worker-webhook-retention');
  endpointId = await createQuietWebhookEndpoint(database.db);
});

afterAll(async () => {
  await database.drop();
});

describe("the worker's webhook delivery retention", () => {
  it('counts what it prunes and samples the table size', async () => {
    await addDeliveries('old', 'delivered', 30, 20);
    await addDeliveries('new', 'delivered', 12, 2);
    const registry = new Registry();
    const tasks = webhookRetentionTasks(SETTINGS, { db: database.db, registry, logger: silent });

    await tasks.prune();
    await sql`analyze webhook_deliveries`.execute(database.db);
    await tasks.sample();

    expect(await metricValue(registry, PRUNED)).toBe(30);
    expect(await metricValue(registry, 'directory_webhook_deliveries_estimated_rows')).toBe(12);
    const size = await sql<{ bytes: string }>`
      select pg_total_relation_size('webhook_deliveries')::text as bytes`.execute(database.db);
    expect(await metricValue(registry, 'directory_webhook_deliveries_bytes')).toBe(
      Number(size.rows[0]!.bytes),
    );
  });

  it('prunes when started, and not again within the interval, whichever worker starts', async () => {
    await sql`delete from maintenance_claims`.execute(database.db);
    await addDeliveries('started', 'failed', 25, 30);
    const startWorker = () => {
      const registry = new Registry();
      const retention = startWebhookRetention(SETTINGS, { db: database.db, registry, logger: silent });
      // The first run starts at once; close waits for it.
      return { close: () => retention.close(), pruned: () => metricValue(registry, PRUNED) };
    };
    const oldRowsLeft = async () => {
      const result = await sql<{ count: string }>`
        select count(*)::text as count from webhook_deliveries where created_at < now() - interval '14 days'`.execute(
        database.db,
      );
      return Number(result.rows[0]!.count);
    };

    const together = [startWorker(), startWorker()];
    await Promise.all(together.map((worker) => worker.close()));
    const counts = await Promise.all(together.map((worker) => worker.pruned()));
    expect(counts.sort()).toEqual([0, 25]);
    expect(await oldRowsLeft()).toBe(0);

    await addDeliveries('later', 'abandoned', 5, 30);
    const restarted = startWorker();
    await restarted.close();
    expect(await restarted.pruned()).toBe(0);
    expect(await oldRowsLeft()).toBe(5);
  });
});
