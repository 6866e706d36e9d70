import { sql, type Kysely } from 'kysely';

/**
 * Account e-mail and sessions:
 * - `accounts.email_verified_at`: when the holder followed a verification link (null: not yet). Accounts
 *   that exist at upgrade are treated as verified (set to their creation time): they were made under the
 *   earlier rules, and their live keys and webhooks already work, so nothing is taken from them.
 * - `account_tokens`: the single-use links the console mails (verify an address, reset a password). The
 *   id is the SHA-256 of the token's random part, so a leaked table lets nobody follow a link; `email` is
 *   the address the link was sent to (a verification counts only for that address).
 * - `console_sessions.last_seen_at`, `user_agent`, `address_range`: what the sessions page shows (the
 *   client's network, such as a /24, never its full address).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table accounts add column email_verified_at timestamptz`.execute(db);
  await sql`update accounts set email_verified_at = created_at`.execute(db);
  await sql`
    create table account_tokens (
      id text primary key,
      account_id text not null references accounts(id) on delete cascade,
      purpose text not null check (purpose in ('verify-email', 'reset-password')),
      email text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz)`.execute(db);
  await sql`create index account_tokens_account on account_tokens (account_id, purpose)`.execute(db);
  await sql`
    alter table console_sessions
      add column last_seen_at timestamptz not null default now(),
      add column user_agent text,
      add column address_range text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table console_sessions
      drop column last_seen_at, drop column user_agent, drop column address_range`.execute(db);
  await sql`drop table account_tokens`.execute(db);
  await sql`alter table accounts drop column email_verified_at`.execute(db);
}
