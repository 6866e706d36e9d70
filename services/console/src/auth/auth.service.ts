import { z } from 'zod';
import type { Database } from '@directory/database';
import { MAX_EMAIL_LENGTH, isAccountEmail } from '@directory/domain';
import { findAccountCredentials, insertAccount } from '@directory/keys';
import type { LoginThrottle, SignUpThrottle } from './login-throttle.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, hashPassword, verifyPassword } from './password.js';

// The domain's linear check; the first issue is the one shown, so the messages come in this order.
export const emailSchema = z
  .string()
  .trim()
  .min(1, 'Enter your email address.')
  .max(MAX_EMAIL_LENGTH, 'That email address is too long.')
  .refine(isAccountEmail, 'Enter an email address like name@example.com.');

export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters.`);

export type FieldErrors = Partial<Record<'email' | 'password', string>>;

export type SignUpResult =
  | { kind: 'created'; accountId: string; email: string }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'emailTaken' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * Creates an account. An email that already has an account is refused, including accounts the
 * operator CLI created (password '!'): without proof that the visitor owns the address, letting a
 * sign-up "claim" one would hand its keys to whoever typed the email first. Every attempt counts
 * against the address's sign-up limit, first: each account brings fresh keys with fresh quota windows.
 */
export async function signUp(
  db: Database,
  throttle: SignUpThrottle,
  input: { email: string; password: string; client: string },
): Promise<SignUpResult> {
  const blocked = await throttle.admit(input.client);
  if (blocked !== null) return { kind: 'throttled', retryAfterSeconds: blocked };
  const email = emailSchema.safeParse(input.email);
  const password = newPasswordSchema.safeParse(input.password);
  if (!email.success || !password.success) {
    const errors: FieldErrors = {};
    if (!email.success) errors.email = email.error.issues[0]?.message ?? 'Invalid email.';
    if (!password.success) errors.password = password.error.issues[0]?.message ?? 'Invalid password.';
    return { kind: 'invalid', errors };
  }
  const created = await insertAccount(db, {
    email: email.data,
    passwordHash: await hashPassword(password.data),
  });
  return created === null
    ? { kind: 'emailTaken' }
    : { kind: 'created', accountId: created.id, email: email.data };
}

export type SignInResult =
  | { kind: 'signedIn'; accountId: string }
  /** `accountId`: the account the email names, when one does (its activity log records the failure). */
  | { kind: 'rejected'; accountId: string | null }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * Checks a password. The attempt is counted (per account and per address) before anything is checked,
 * so parallel guesses cannot all get through, and a throttled attempt is refused without a check (even
 * with the right password, so the throttle is no oracle); unknown emails and accounts without a password
 * (created by the operator CLI) cost as much time as a wrong password.
 */
export async function signIn(
  db: Database,
  throttle: LoginThrottle,
  input: { email: string; password: string; client: string },
): Promise<SignInResult> {
  const email = input.email.trim();
  const blocked = await throttle.admit(email, input.client);
  if (blocked !== null) return { kind: 'throttled', retryAfterSeconds: blocked };

  // No account has an email sign-up would refuse: such an attempt costs no query (but the same time).
  const account = isAccountEmail(email) ? await findAccountCredentials(db, email) : null;
  const password = input.password.slice(0, MAX_PASSWORD_LENGTH + 1);
  // One check for every case (unknown email, operator-created account, wrong password): same work.
  const valid = await verifyPassword(password, account?.passwordHash ?? null);
  if (account === null || !valid) return { kind: 'rejected', accountId: account?.id ?? null };
  await throttle.succeeded(email, input.client);
  return { kind: 'signedIn', accountId: account.id };
}
