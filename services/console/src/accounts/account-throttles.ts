import { createHash } from 'node:crypto';
import type { RedisClient } from '@directory/config';
import { createAttemptLimiter } from '@directory/keyed-access';

/** Seconds to wait when over a limit, else null (the attempt was counted). */
type Admit = Promise<number | null>;

export type AccountThrottles = {
  /** A verification mail for this account (sent on request; sign-up's own mail is not counted). */
  verificationMail: (accountId: string) => Admit;
  /** A reset request: per client address group first, then per e-mail address (hashed). */
  passwordReset: (email: string, client: string) => Admit;
  /** A password change with the current password: each is a guess at it, like a sign-in. */
  passwordChange: (accountId: string) => Admit;
  /** A two-factor code (sign-in's second step, enrolment): per account, counted before the check. */
  twoFactorCode: (accountId: string) => Admit;
  /** A right code gives its attempt back: only wrong codes use up the budget. */
  twoFactorSucceeded: (accountId: string) => Promise<void>;
};

export type AccountLimits = {
  verificationMailsMax: number;
  resetsPerEmailMax: number;
  resetsPerAddressMax: number;
  /** Mails (verification, reset) are counted per this window. */
  mailWindowSeconds: number;
  passwordChangesMax: number;
  /** Password changes are counted per this window (the sign-in window). */
  passwordChangeWindowSeconds: number;
  /** Wrong two-factor codes per account per window (default: 5 per passwordChangeWindowSeconds). */
  twoFactorCodesMax?: number;
  twoFactorWindowSeconds?: number;
};

/**
 * The limits of the account forms, shared by every console process through Redis (the same fixed-window
 * counter as sign-in). Every attempt is counted before the work is done, so parallel posts cannot all
 * get through. E-mail addresses and client addresses are hashed before they become Redis keys.
 */
export function createAccountThrottles(options: {
  redis: RedisClient;
  prefix: string;
  limits: AccountLimits;
}): AccountThrottles {
  const limiter = (name: string, max: number, windowSeconds: number) =>
    createAttemptLimiter({
      redis: options.redis,
      prefix: options.prefix,
      name: `console:${name}`,
      max,
      windowSeconds,
    });
  const { limits } = options;
  const verification = limiter('verify-mail:account', limits.verificationMailsMax, limits.mailWindowSeconds);
  const resetPerAddress = limiter('reset:address', limits.resetsPerAddressMax, limits.mailWindowSeconds);
  const resetPerEmail = limiter('reset:email', limits.resetsPerEmailMax, limits.mailWindowSeconds);
  const change = limiter(
    'password-change:account',
    limits.passwordChangesMax,
    limits.passwordChangeWindowSeconds,
  );
  const twoFactor = limiter(
    'two-factor:account',
    limits.twoFactorCodesMax ?? 5,
    limits.twoFactorWindowSeconds ?? limits.passwordChangeWindowSeconds,
  );
  const admit = async (decision: Promise<{ allowed: boolean; retryAfterSeconds?: number }>) => {
    const result = await decision;
    return result.allowed ? null : (result.retryAfterSeconds ?? 1);
  };
  return {
    verificationMail: (accountId) => admit(verification.consume(accountId)),
    // The address first: a refused address spends nothing of the e-mail's budget, so one client cannot
    // use up the reset mails of every address it types (only the few its own limit allows).
    passwordReset: async (email, client) =>
      (await admit(resetPerAddress.consume(digest(client)))) ??
      admit(resetPerEmail.consume(digest(email.trim().toLowerCase()))),
    passwordChange: (accountId) => admit(change.consume(accountId)),
    twoFactorCode: (accountId) => admit(twoFactor.consume(accountId)),
    twoFactorSucceeded: async (accountId) => {
      await twoFactor.refund(accountId);
    },
  };
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
