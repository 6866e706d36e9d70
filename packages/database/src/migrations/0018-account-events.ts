import { sql, type Kysely } from 'kysely';

/**
 * `account_events`: the account's activity log (the console's "Activity" page). One row per event of
 * the account (sign-in, sign-out, password, keys, webhooks, two-factor...), with the browser and network
 * of the request that caused it, as the sessions page keeps them (a User-Agent cut to 256 characters,
 * an IPv4 /24 or IPv6 /48, never a full address). `detail` names what the event was about (a key or
 * endpoint id), never a secret. Account deletion clears `user_agent` and `address_range`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table account_events (
      id bigint generated always as identity primary key,
      account_id text not null references accounts(id) on delete cascade,
      kind text not null,
      detail text,
      user_agent text,
      address_range text,
      created_at timestamptz not null default now())`.execute(db);
  await sql`create index account_events_account on account_events (account_id, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table account_events`.execute(db);
}
