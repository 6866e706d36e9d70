import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Append-only: the global position orders every event ever stored and is the projection version.
  await db.schema
    .createTable('events')
    .addColumn('position', 'bigserial', (column) => column.primaryKey())
    .addColumn('event_id', 'text', (column) => column.notNull().unique())
    .addColumn('place_id', 'text', (column) => column.notNull())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('occurred_at', 'timestamptz', (column) => column.notNull())
    .addColumn('schema_version', 'integer', (column) => column.notNull())
    // json, not jsonb: payloads are written once and read back whole, never queried inside, and json
    // skips the binary conversion on the hot append path.
    .addColumn('payload', 'json', (column) => column.notNull())
    .addColumn('recorded_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('events_place_position')
    .on('events')
    .columns(['place_id', 'position'])
    .execute();

  await db.schema
    .createTable('places')
    .addColumn('place_id', 'text', (column) => column.primaryKey())
    // The index document of the folded state (toSearchDocument), so a reindex is a straight copy of
    // stored text. Null until the first fold: the append creates the row, so a lost job shows as lag.
    // The state itself is not stored: it is a pure fold of the stream, refolded whenever needed.
    .addColumn('document', 'json')
    // Events stored for the place, bumped in the same statement as the append.
    .addColumn('stream_version', 'bigint', (column) => column.notNull().defaultTo(0))
    // The stream version `document` was folded at, and the highest one the index is known to hold.
    .addColumn('state_version', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('projected_version', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('served', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  // The sweeper's work list: places whose index copy lags the stored stream.
  await db.schema
    .createIndex('places_projection_lag')
    .on('places')
    .column('place_id')
    .where(sql.ref('projected_version'), '<', sql.ref('stream_version'))
    .execute();

  await db.schema
    .createTable('dead_letters')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    // sha256 of (source, reason, raw): a retried batch records each rejection once.
    .addColumn('fingerprint', 'text', (column) => column.notNull().unique())
    .addColumn('event_id', 'text')
    .addColumn('place_id', 'text')
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('raw', 'jsonb', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('received_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('redriven_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dead_letters').execute();
  await db.schema.dropTable('places').execute();
  await db.schema.dropTable('events').execute();
}
