import { sql, type Kysely } from 'kysely';

/**
 * Signed webhooks (packages/webhooks): the endpoints an account registers, one delivery row per change
 * and endpoint (its id is the Standard Webhooks `webhook-id`, its payload the exact bytes every attempt
 * sends), and where the dispatcher is in each country's changes feed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'text', (column) =>
      column.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('countries', sql`text[]`, (column) => column.notNull().check(sql`cardinality(countries) > 0`))
    // AES-256-GCM of the signing secret under WEBHOOK_SECRET_KEY: never the secret in clear.
    .addColumn('secret_ciphertext', 'bytea', (column) => column.notNull())
    .addColumn('enabled', 'boolean', (column) => column.notNull().defaultTo(true))
    .addColumn('disabled_reason', 'text')
    .addColumn('failing_since', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_account')
    .on('webhook_endpoints')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('endpoint_id', 'uuid', (column) =>
      column.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('event_type', 'text', (column) => column.notNull())
    .addColumn('place_id', 'text')
    .addColumn('place_version', 'bigint')
    .addColumn('payload', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) =>
      column
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'delivered', 'failed', 'abandoned')`),
    )
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_latency_ms', 'integer')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('changed_at', 'timestamptz')
    .addColumn('delivered_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint_created')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'created_at desc'])
    .execute();
  // The re-enqueue of pending deliveries (a crash between commit and enqueue) reads only these.
  await sql`create index webhook_deliveries_pending on webhook_deliveries (created_at) where status = 'pending'`.execute(
    db,
  );

  await db.schema
    .createTable('webhook_feed_positions')
    .addColumn('country', 'text', (column) => column.primaryKey())
    .addColumn('xid', sql`xid8`, (column) => column.notNull())
    .addColumn('place_id', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_feed_positions').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
