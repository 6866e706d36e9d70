import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A dead letter keeps whatever a producer sent. jsonb refuses `\u0000` (and a failed insert loses the
  // batch's other letters), so the raw payload is kept as JSON text: escapes stay escapes. A line that
  // was not JSON at all is stored as a JSON string (earlier rows wrapped it as {"value": …}).
  await sql`
    alter table dead_letters alter column raw type text using (
      case when jsonb_typeof(raw) = 'object' and raw ? 'value' and raw - 'value' = '{}'::jsonb
        then (raw -> 'value')::text else raw::text end)`.execute(db);

  // Places whose index document Elasticsearch refused for its content (mapping, immense term, …): set
  // aside with the reason at the stream version that failed, so the sweeper skips them until the place
  // gets new events or an operator retries it, instead of retrying them first forever.
  await db.schema
    .createTable('projection_failures')
    .addColumn('place_id', 'text', (column) => column.primaryKey())
    .addColumn('state_version', 'bigint', (column) => column.notNull())
    .addColumn('status', 'integer', (column) => column.notNull())
    .addColumn('error_type', 'text', (column) => column.notNull())
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('first_failed_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('last_failed_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('projection_failures').execute();
  await sql`alter table dead_letters alter column raw type jsonb using raw::jsonb`.execute(db);
}
