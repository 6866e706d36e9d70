import { sql, type Kysely } from 'kysely';

/**
 * Two-factor sign-in and account deletion:
 * - `accounts.totp_secret`: the TOTP secret, AES-256-GCM under a key derived from CONSOLE_SECRET (null:
 *   two-factor sign-in is off); `totp_pending_secret` the one being enrolled (shown as a QR code until a
 *   code confirms it); `totp_enabled_at`; `totp_last_step` the last time step a code was accepted for
 *   (a code of that step or an earlier one is refused: no replay).
 * - `account_recovery_codes`: the ten one-time codes shown once at enrolment, stored as SHA-256 only.
 * - `accounts.deleted_at`: a deleted account keeps its row (its keys' anonymous usage counts refer to
 *   it) with no e-mail address, password or secret.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table accounts
      add column totp_secret bytea,
      add column totp_pending_secret bytea,
      add column totp_enabled_at timestamptz,
      add column totp_last_step bigint,
      add column deleted_at timestamptz`.execute(db);
  await sql`
    create table account_recovery_codes (
      account_id text not null references accounts(id) on delete cascade,
      code_hash text not null,
      created_at timestamptz not null default now(),
      used_at timestamptz,
      primary key (account_id, code_hash))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table account_recovery_codes`.execute(db);
  await sql`
    alter table accounts
      drop column totp_secret, drop column totp_pending_secret, drop column totp_enabled_at,
      drop column totp_last_step, drop column deleted_at`.execute(db);
}
