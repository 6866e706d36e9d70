import type { Database } from '@directory/database';
import { isAccountEmail } from '@directory/domain';
import { findAccountById, findAccountCredentials, markEmailVerified, setPasswordHash } from '@directory/keys';
import { readAccountToken, type AccountTokenPurpose } from './account-token.js';
import { consumeToken, findUsableToken, type TokenHolder } from './account-token.repository.js';
import type { AccountMail } from './account-mail.js';
import type { AccountThrottles } from './account-throttles.js';
import { emailSchema, newPasswordSchema } from '../auth/auth.service.js';
import { MAX_PASSWORD_LENGTH, hashPassword, verifyPassword } from '../auth/password.js';
import { deleteSessionsOfAccount } from '../sessions/session.repository.js';

/**
 * Who a link's token belongs to while it can still be used (signature, purpose, expiry, single use), or
 * null. Looking does not use it: pages that show a form for a link (GET) call this, the form's POST
 * uses the token up.
 */
export async function holderOfToken(
  db: Database,
  secret: string,
  purpose: AccountTokenPurpose,
  token: string,
): Promise<TokenHolder | null> {
  const id = readAccountToken(secret, purpose, token);
  return id === null ? null : findUsableToken(db, id, purpose);
}

/**
 * Follows a verification link: uses the token up and marks the account's address verified, in one
 * transaction (a link mailed to an address the account no longer has verifies nothing).
 */
export async function confirmEmail(
  db: Database,
  secret: string,
  token: string,
): Promise<{ kind: 'verified'; accountId: string } | { kind: 'invalidLink' }> {
  const id = readAccountToken(secret, 'verify-email', token);
  if (id === null) return { kind: 'invalidLink' };
  return db.transaction().execute(async (trx) => {
    const holder = await consumeToken(trx, id, 'verify-email');
    if (holder === null || !(await markEmailVerified(trx, holder.accountId, holder.email)))
      return { kind: 'invalidLink' as const };
    return { kind: 'verified' as const, accountId: holder.accountId };
  });
}

export type ResendResult =
  { kind: 'sent' } | { kind: 'alreadyVerified' } | { kind: 'throttled'; retryAfterSeconds: number };

/** A new verification link on the signed-in holder's request (counted per account). */
export async function resendVerification(
  deps: { throttles: AccountThrottles; mail: AccountMail },
  session: { accountId: string; email: string; emailVerified: boolean },
): Promise<ResendResult> {
  if (session.emailVerified) return { kind: 'alreadyVerified' };
  const blocked = await deps.throttles.verificationMail(session.accountId);
  if (blocked !== null) return { kind: 'throttled', retryAfterSeconds: blocked };
  await deps.mail.sendVerification({ accountId: session.accountId, email: session.email });
  return { kind: 'sent' };
}

export type ResetRequestResult =
  | { kind: 'accepted' }
  | { kind: 'invalid'; error: string }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * A reset request. The answer is the same whether or not an account has the address, and so is its
 * timing: the attempt is counted (per client, then per address), and the account lookup and the mail
 * happen after the answer is sent.
 */
export async function requestPasswordReset(
  deps: { db: Database; throttles: AccountThrottles; mail: AccountMail },
  input: { email: string; client: string },
): Promise<ResetRequestResult> {
  const email = emailSchema.safeParse(input.email);
  if (!email.success) return { kind: 'invalid', error: email.error.issues[0]?.message ?? 'Invalid email.' };
  const blocked = await deps.throttles.passwordReset(email.data, input.client);
  if (blocked !== null) return { kind: 'throttled', retryAfterSeconds: blocked };
  deps.mail.later('password reset mail', async () => {
    const account = isAccountEmail(email.data) ? await findAccountCredentials(deps.db, email.data) : null;
    if (account !== null) await deps.mail.sendPasswordReset({ accountId: account.id, email: account.email });
  });
  return { kind: 'accepted' };
}

export type ResetResult =
  | { kind: 'reset'; accountId: string; email: string }
  | { kind: 'invalidLink' }
  | { kind: 'invalid'; error: string };

/**
 * Follows a reset link with the new password: uses the token up, sets the password, marks the address
 * verified (the link proved it is read) and ends every session of the account, in one transaction. An
 * account the operator CLI made (no password yet) gets its first password this way.
 */
export async function resetPassword(
  db: Database,
  secret: string,
  input: { token: string; password: string },
): Promise<ResetResult> {
  const id = readAccountToken(secret, 'reset-password', input.token);
  if (id === null) return { kind: 'invalidLink' };
  const password = newPasswordSchema.safeParse(input.password);
  if (!password.success)
    return { kind: 'invalid', error: password.error.issues[0]?.message ?? 'Invalid password.' };
  const hash = await hashPassword(password.data);
  return db.transaction().execute(async (trx) => {
    const holder = await consumeToken(trx, id, 'reset-password');
    if (holder === null || !(await markEmailVerified(trx, holder.accountId, holder.email)))
      return { kind: 'invalidLink' as const };
    await setPasswordHash(trx, holder.accountId, hash);
    await deleteSessionsOfAccount(trx, holder.accountId);
    return { kind: 'reset' as const, accountId: holder.accountId, email: holder.email };
  });
}

export type ChangeResult =
  | { kind: 'changed'; email: string; endedSessions: number }
  | { kind: 'wrongPassword' }
  | { kind: 'invalid'; error: string }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * A change with the current password. Counted per account before the check (each attempt is a guess at
 * the current password); on success every other session of the account ends, this one stays.
 */
export async function changePassword(
  deps: { db: Database; throttles: AccountThrottles },
  input: { accountId: string; sessionId: string; currentPassword: string; newPassword: string },
): Promise<ChangeResult> {
  const blocked = await deps.throttles.passwordChange(input.accountId);
  if (blocked !== null) return { kind: 'throttled', retryAfterSeconds: blocked };
  const account = await findAccountById(deps.db, input.accountId);
  const current = input.currentPassword.slice(0, MAX_PASSWORD_LENGTH + 1);
  if (account === null || !(await verifyPassword(current, account.passwordHash)))
    return { kind: 'wrongPassword' };
  const password = newPasswordSchema.safeParse(input.newPassword);
  if (!password.success)
    return { kind: 'invalid', error: password.error.issues[0]?.message ?? 'Invalid password.' };
  const hash = await hashPassword(password.data);
  const endedSessions = await deps.db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, account.id, hash);
    return deleteSessionsOfAccount(trx, account.id, { keep: input.sessionId });
  });
  return { kind: 'changed', email: account.email, endedSessions };
}
