import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@directory/database';
import { ACCOUNT_TOKEN_RANDOM_BYTES, mintAccountToken, type AccountTokenPurpose } from './account-token.js';
import { storeAccountToken } from './account-token.repository.js';
import type { Mailer } from '../mail/mailer.js';
import {
  accountDeletedMail,
  passwordChangedMail,
  passwordResetMail,
  verificationMail,
} from '../mail/mail-templates.js';

/** A verification link works for a day; a reset link for half an hour. */
export const VERIFICATION_TOKEN_TTL_S = 24 * 3_600;
export const RESET_TOKEN_TTL_S = 30 * 60;

export type AccountMailDependencies = {
  db: Database;
  mailer: Mailer;
  /** HMAC key of the links' tokens (config CONSOLE_SECRET). */
  secret: string;
  /** The origin the links open (config CONSOLE_PUBLIC_URL), without a trailing slash. */
  publicUrl: string;
  log: FastifyBaseLogger;
};

export type AccountMail = {
  /** Makes a verification token for the account's address and mails its link. */
  sendVerification: (account: { accountId: string; email: string }) => Promise<void>;
  /** Makes a reset token and mails its link. */
  sendPasswordReset: (account: { accountId: string; email: string }) => Promise<void>;
  /** Tells the address that its account's password changed (with a reset link, in case it was not them). */
  sendPasswordChanged: (email: string) => Promise<void>;
  /** Confirms to the address an account had that the account is deleted. */
  sendAccountDeleted: (email: string, erased: { keys: number; webhooks: number }) => Promise<void>;
  /**
   * Runs `task` after the answer is sent: a page must not wait for (or reveal by its timing) an SMTP
   * exchange. A failure is logged by `what`, never with the mail.
   */
  later: (what: string, task: () => Promise<void>) => void;
  /** Waits for every mail still being sent (the console's close). */
  drain: () => Promise<void>;
};

export function createAccountMail(deps: AccountMailDependencies): AccountMail {
  const pending = new Set<Promise<void>>();
  const linkTo = async (
    purpose: AccountTokenPurpose,
    path: string,
    account: { accountId: string; email: string },
    ttlSeconds: number,
  ) => {
    const { token, id } = mintAccountToken(deps.secret, purpose, randomBytes(ACCOUNT_TOKEN_RANDOM_BYTES));
    await storeAccountToken(deps.db, {
      id,
      accountId: account.accountId,
      purpose,
      email: account.email,
      ttlSeconds,
    });
    return `${deps.publicUrl}${path}?token=${token}`;
  };
  return {
    sendVerification: async (account) => {
      const link = await linkTo('verify-email', '/verify-email', account, VERIFICATION_TOKEN_TTL_S);
      await deps.mailer.send(
        account.email,
        verificationMail({ email: account.email, link, validHours: VERIFICATION_TOKEN_TTL_S / 3_600 }),
      );
      deps.log.info({ accountId: account.accountId }, 'verification mail sent');
    },
    sendPasswordReset: async (account) => {
      const link = await linkTo('reset-password', '/reset-password', account, RESET_TOKEN_TTL_S);
      await deps.mailer.send(
        account.email,
        passwordResetMail({ link, validMinutes: RESET_TOKEN_TTL_S / 60 }),
      );
      deps.log.info({ accountId: account.accountId }, 'password reset mail sent');
    },
    sendPasswordChanged: async (email) => {
      await deps.mailer.send(email, passwordChangedMail({ resetLink: `${deps.publicUrl}/forgot-password` }));
    },
    sendAccountDeleted: async (email, erased) => {
      await deps.mailer.send(email, accountDeletedMail(erased));
    },
    later: (what, task) => {
      const running = task().catch((error: unknown) => {
        // The error's name and code only: an SMTP answer may quote the recipient.
        const { name, code } =
          error instanceof Error
            ? (error as Error & { code?: unknown })
            : { name: 'unknown', code: undefined };
        deps.log.error({ err: { name, code } }, `${what} failed`);
      });
      pending.add(running);
      void running.finally(() => pending.delete(running));
    },
    drain: async () => {
      await Promise.allSettled([...pending]);
    },
  };
}
