import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestQueue } from '@directory/ingest';
import { pruneDeliveries } from '@directory/webhooks/retention';
import {
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  type TestDatabase,
  type TestRedis,
  type TestSearch,
} from '@directory/testing';
import { formatStatus, needsAttention, statusDocument } from '../src/attention.js';
import { readStatus } from '../src/status.service.js';

describe('npm run status: the webhook deliveries line', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let search: TestSearch;
  let queue: ReturnType<typeof createIngestQueue>;

  beforeAll(async () => {
    database = await createTestDatabase('status-webhook-deliveries');
    redis = createTestRedis('status-webhook-deliveries');
    search = createTestSearch('status-webhook-deliveries');
    queue = createIngestQueue({ connection: redis.redis, prefix: redis.prefix });
  });
  afterAll(async () => {
    await queue.close();
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
  });

  const status = () =>
    readStatus({
      db: database.db,
      redis: redis.redis,
      redisPrefix: redis.prefix,
      queue,
      search: { client: search.client, alias: `${search.prefix}_doctors` },
      timeoutMs: 2_000,
      now: () => new Date(),
    });

  it("shows the table's estimated rows, its bytes on disk and when it was last pruned", async () => {
    const before = await status();
    expect(before.webhookDeliveries?.lastPrunedAgeSeconds).toBeNull();
    expect(formatStatus(before, [])).toMatch(/^webhook deliveries {4}.+ never pruned$/m);

    const accountId = randomUUID();
    await database.db
      .insertInto('accounts')
      .values({ id: accountId, email: `${accountId}@example.com`, password_hash: '!' })
      .execute();
    await sql`
      with endpoint as (
        insert into webhook_endpoints (account_id, url, countries, secret_ciphertext)
        values (${accountId}, 'https://hooks.example.com/in', '{de}', '\\x00'::bytea) returning id)
      insert into webhook_deliveries (id, endpoint_id, event_type, place_id, place_version, payload, status)
      select 'msg_status_' || n, endpoint.id, 'doctor.upserted', 'p' || n, 1, repeat('x', 2000), 'delivered'
        from endpoint, generate_series(1, 500) as n`.execute(database.db);
    await sql`analyze webhook_deliveries`.execute(database.db);
    await pruneDeliveries(database.db, {
      retentionDays: 14,
      claimMs: 60_000,
      holder: 'status-spec',
      now: () => new Date(),
    });

    const after = await status();
    const bytes = await sql<{ bytes: string }>`
      select pg_total_relation_size('webhook_deliveries')::text as bytes`.execute(database.db);
    expect(after.webhookDeliveries).toEqual({
      estimatedRows: 500,
      bytes: Number(bytes.rows[0]!.bytes),
      lastPrunedAgeSeconds: expect.any(Number) as number,
    });
    const screen = formatStatus(after, needsAttention(after));
    expect(screen).toMatch(
      /^webhook deliveries {4}about 500 rows {2}\d+\.\d MB on disk {2}last pruned \d+ s ago$/m,
    );
    expect(statusDocument(after, []).webhookDeliveries).toEqual(after.webhookDeliveries);
  });
});
