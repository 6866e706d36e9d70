import QRCode from 'qrcode';
import type { Database } from '@directory/database';
import { findAccountById } from '@directory/keys';
import type { AccountThrottles } from './account-throttles.js';
import {
  acceptedTotpStep,
  hashRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  normalizeRecoveryCode,
  openTotpSecret,
  sealTotpSecret,
  totpUri,
} from './two-factor.js';
import {
  claimTotpStep,
  disableTwoFactor,
  enableTwoFactor,
  findTwoFactor,
  storePendingSecret,
  useRecoveryCode,
} from './two-factor.repository.js';
import { MAX_PASSWORD_LENGTH, verifyPassword } from '../auth/password.js';

export type TwoFactorDeps = { db: Database; throttles: AccountThrottles; secret: string };

/** Whether signing in to the account asks for a code after the password. */
export async function hasTwoFactor(db: Database, accountId: string): Promise<boolean> {
  return (await findTwoFactor(db, accountId))?.enabled === true;
}

export type Enrolment =
  { kind: 'enabled'; recoveryCodesLeft: number } | { kind: 'enrolling'; secret: string; qrSvg: string };

/**
 * The enrolment page's state: enabled (nothing secret is shown again), or the pending secret (made on
 * the first visit, kept until a code confirms it) with its QR code, drawn here as SVG.
 */
export async function enrolmentOf(
  deps: TwoFactorDeps,
  account: { accountId: string; email: string },
): Promise<Enrolment> {
  const state = await findTwoFactor(deps.db, account.accountId);
  if (state?.enabled === true) return { kind: 'enabled', recoveryCodesLeft: state.recoveryCodesLeft };
  let secret: string;
  if (state?.sealedPendingSecret) secret = openTotpSecret(state.sealedPendingSecret, deps.secret);
  else {
    secret = newTotpSecret();
    await storePendingSecret(deps.db, account.accountId, sealTotpSecret(secret, deps.secret));
  }
  const qrSvg = await QRCode.toString(totpUri(secret, account.email), { type: 'svg', margin: 1, width: 200 });
  return { kind: 'enrolling', secret, qrSvg };
}

export type EnableResult =
  | { kind: 'enabled'; recoveryCodes: string[] }
  | { kind: 'wrongCode' }
  | { kind: 'notEnrolling' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/** Confirms the pending secret with a code from the app; the ten recovery codes are returned once. */
export async function confirmEnrolment(
  deps: TwoFactorDeps,
  accountId: string,
  code: string,
  now = new Date(),
): Promise<EnableResult> {
  const blocked = await deps.throttles.twoFactorCode(accountId);
  if (blocked !== null) return { kind: 'throttled', retryAfterSeconds: blocked };
  const state = await findTwoFactor(deps.db, accountId);
  if (state === null || state.enabled || state.sealedPendingSecret === null) return { kind: 'notEnrolling' };
  const secret = openTotpSecret(state.sealedPendingSecret, deps.secret);
  const step = acceptedTotpStep(secret, code, now, null);
  if (step === null) return { kind: 'wrongCode' };
  const recoveryCodes = newRecoveryCodes();
  const enabled = await enableTwoFactor(deps.db, accountId, {
    pendingSecret: state.sealedPendingSecret,
    step,
    recoveryCodeHashes: recoveryCodes.map((code) => hashRecoveryCode(normalizeRecoveryCode(code) ?? '')),
  });
  if (!enabled) return { kind: 'notEnrolling' };
  await deps.throttles.twoFactorSucceeded(accountId);
  return { kind: 'enabled', recoveryCodes };
}

/**
 * Checks a second factor: a TOTP code (of a step later than the last one used: no replay) or an unused
 * recovery code (used up by this). Not throttled here: the callers count the attempt first.
 */
export async function checkSecondFactor(
  deps: { db: Database; secret: string },
  accountId: string,
  code: string,
  now = new Date(),
): Promise<'totp' | 'recovery' | 'wrong'> {
  const state = await findTwoFactor(deps.db, accountId);
  if (state === null || !state.enabled || state.sealedSecret === null) return 'wrong';
  const step = acceptedTotpStep(openTotpSecret(state.sealedSecret, deps.secret), code, now, state.lastStep);
  if (step !== null) return (await claimTotpStep(deps.db, accountId, step)) ? 'totp' : 'wrong';
  const recovery = normalizeRecoveryCode(code);
  if (recovery !== null && (await useRecoveryCode(deps.db, accountId, hashRecoveryCode(recovery))))
    return 'recovery';
  return 'wrong';
}

export type ReauthenticationResult =
  | { kind: 'confirmed'; usedRecoveryCode: boolean }
  | { kind: 'wrongPassword' }
  | { kind: 'wrongCode' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * The password (and, with two-factor sign-in on, a code) again, before turning two-factor off or
 * deleting the account: counted per account like a password change (each is a guess at the password).
 */
export async function reauthenticate(
  deps: TwoFactorDeps,
  input: { accountId: string; password: string; code: string },
  now = new Date(),
): Promise<ReauthenticationResult> {
  const blocked = await deps.throttles.passwordChange(input.accountId);
  if (blocked !== null) return { kind: 'throttled', retryAfterSeconds: blocked };
  const account = await findAccountById(deps.db, input.accountId);
  const password = input.password.slice(0, MAX_PASSWORD_LENGTH + 1);
  if (account === null || !(await verifyPassword(password, account.passwordHash)))
    return { kind: 'wrongPassword' };
  if (!(await hasTwoFactor(deps.db, input.accountId))) return { kind: 'confirmed', usedRecoveryCode: false };
  const factor = await checkSecondFactor(deps, input.accountId, input.code, now);
  if (factor === 'wrong') return { kind: 'wrongCode' };
  return { kind: 'confirmed', usedRecoveryCode: factor === 'recovery' };
}

export async function turnOffTwoFactor(db: Database, accountId: string): Promise<void> {
  await disableTwoFactor(db, accountId);
}
