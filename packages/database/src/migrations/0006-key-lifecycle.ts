import { sql, type Kysely } from 'kysely';

/**
 * Keys beyond the basics (docs/console.md "Expiry, rotation, usage"):
 * - `api_keys.expires_at`: an optional expiry chosen at creation; `revoked_at` may now lie in the future
 *   (a rolled key's scheduled revocation, the end of its grace period), and `rolled_from` links a
 *   successor to the key it replaced. `last_used_at` (0002) is filled by the usage flush.
 * - `api_key_usage`: authenticated requests per key per UTC day, and how many of them were answered 429.
 * - `api_key_usage_flushes`: the id of every usage batch already added, so a batch retried after a crash
 *   between the database commit and its removal from Redis is never counted twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table api_keys
      add column expires_at timestamptz,
      add column rolled_from text references api_keys (id) on delete set null`.execute(db);
  await sql`
    create table api_key_usage (
      key_id text not null references api_keys (id) on delete cascade,
      day date not null,
      requests bigint not null default 0,
      limited bigint not null default 0,
      primary key (key_id, day))`.execute(db);
  await sql`
    create table api_key_usage_flushes (
      id text primary key,
      applied_at timestamptz not null default now())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table api_key_usage_flushes`.execute(db);
  await sql`drop table api_key_usage`.execute(db);
  await sql`alter table api_keys drop column rolled_from, drop column expires_at`.execute(db);
}
