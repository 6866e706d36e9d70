import { sql } from 'kysely';
import type { Database } from '@directory/database';

/** An account's two-factor state as stored (the secrets sealed). */
export type TwoFactorRecord = {
  enabled: boolean;
  sealedSecret: Buffer | null;
  sealedPendingSecret: Buffer | null;
  lastStep: number | null;
  recoveryCodesLeft: number;
};

export async function findTwoFactor(db: Database, accountId: string): Promise<TwoFactorRecord | null> {
  const row = await db
    .selectFrom('accounts')
    .select([
      'totp_secret',
      'totp_pending_secret',
      'totp_enabled_at',
      'totp_last_step',
      (query) =>
        query
          .selectFrom('account_recovery_codes')
          .select(sql<string>`count(*)`.as('left'))
          .whereRef('account_recovery_codes.account_id', '=', 'accounts.id')
          .where('account_recovery_codes.used_at', 'is', null)
          .as('codes_left'),
    ])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (row === undefined) return null;
  return {
    enabled: row.totp_secret !== null && row.totp_enabled_at !== null,
    sealedSecret: row.totp_secret,
    sealedPendingSecret: row.totp_pending_secret,
    lastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    recoveryCodesLeft: Number(row.codes_left ?? 0),
  };
}

export async function storePendingSecret(db: Database, accountId: string, sealed: Buffer): Promise<void> {
  await db.updateTable('accounts').set({ totp_pending_secret: sealed }).where('id', '=', accountId).execute();
}

/**
 * Turns two-factor sign-in on with the pending secret (the one the code was checked against), the step
 * of that code as the last one used, and fresh recovery codes (hashes) instead of any earlier ones.
 * False when the pending secret changed meanwhile (another enrolment page).
 */
export async function enableTwoFactor(
  db: Database,
  accountId: string,
  input: { pendingSecret: Buffer; step: number; recoveryCodeHashes: readonly string[] },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('accounts')
      .set({
        totp_secret: input.pendingSecret,
        totp_pending_secret: null,
        totp_enabled_at: sql<Date>`now()`,
        totp_last_step: input.step,
      })
      .where('id', '=', accountId)
      .where('totp_pending_secret', '=', input.pendingSecret)
      .where('totp_enabled_at', 'is', null)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return false;
    await trx.deleteFrom('account_recovery_codes').where('account_id', '=', accountId).execute();
    await trx
      .insertInto('account_recovery_codes')
      .values(input.recoveryCodeHashes.map((hash) => ({ account_id: accountId, code_hash: hash })))
      .execute();
    return true;
  });
}

/** Records `step` as used, if it is later than the last one used: false for a replayed step. */
export async function claimTotpStep(db: Database, accountId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('accounts')
    .set({ totp_last_step: step })
    .where('id', '=', accountId)
    .where((where) =>
      where.or([where('totp_last_step', 'is', null), where('totp_last_step', '<', String(step))]),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Uses a recovery code up: false when the account has no such unused code. */
export async function useRecoveryCode(db: Database, accountId: string, codeHash: string): Promise<boolean> {
  const result = await db
    .updateTable('account_recovery_codes')
    .set({ used_at: sql<Date>`now()` })
    .where('account_id', '=', accountId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function disableTwoFactor(db: Database, accountId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('accounts')
      .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null })
      .where('id', '=', accountId)
      .execute();
    await trx.deleteFrom('account_recovery_codes').where('account_id', '=', accountId).execute();
  });
}
