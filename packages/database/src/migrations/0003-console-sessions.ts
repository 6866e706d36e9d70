import { sql, type Kysely } from 'kysely';

// Console sign-in sessions. The id is the SHA-256 of the session token the browser holds: a leaked
// table (backup, replica) does not let anyone act as the users in it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('console_sessions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('account_id', 'text', (column) =>
      column.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('console_sessions_account')
    .on('console_sessions')
    .column('account_id')
    .execute();
  await db.schema
    .createIndex('console_sessions_expires')
    .on('console_sessions')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('console_sessions').execute();
}
