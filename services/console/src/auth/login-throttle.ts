import { createHash } from 'node:crypto';
import type { RedisClient } from '@directory/config';
import { createAttemptLimiter } from '@directory/keyed-access';

/**
 * `client` is the client's address group (clientAddressGroup in @directory/http-server: an IPv6
 * client's network, not its single address), so one subscriber cannot reset the limits by walking
 * through the addresses of its /64.
 */
export type LoginThrottle = {
  /**
   * Counts this sign-in attempt for the account (email) and for the client, BEFORE the password is
   * checked, and says how long to wait when either is over its limit (else null). Counting first is
   * what makes the limit hold against parallel guesses.
   */
  admit: (email: string, client: string) => Promise<number | null>;
  /** A successful sign-in gives its attempt back, so only failures use up the budget. */
  succeeded: (email: string, client: string) => Promise<void>;
};

export type SignUpThrottle = {
  /** Counts a sign-up attempt for the client; seconds to wait when over the limit, else null. */
  admit: (client: string) => Promise<number | null>;
};

/**
 * Sign-in limits, shared by every console process through Redis, each counted separately:
 * - per account and address pair, the tight one (config CONSOLE_LOGIN_MAX_FAILURES): one attacker
 *   gets a few guesses at an account, and its owner, elsewhere, is not locked out by them;
 * - per account, looser: guesses spread over many addresses still stop;
 * - per address: one address cannot try many accounts.
 * Client addresses are only as good as the trusted-proxy list (TRUSTED_PROXIES). Emails and addresses
 * are hashed: Redis never holds either in clear.
 */
export function createLoginThrottle(options: {
  redis: RedisClient;
  prefix: string;
  maxPerAccountAndAddress: number;
  maxPerAccount: number;
  maxPerAddress: number;
  windowSeconds: number;
}): LoginThrottle {
  const limiter = (name: string, max: number) =>
    createAttemptLimiter({
      redis: options.redis,
      prefix: options.prefix,
      name: `console:sign-in:${name}`,
      max,
      windowSeconds: options.windowSeconds,
    });
  // Checked in this order, each only once the previous one admitted the attempt: an attempt refused
  // for its address or its pair spends nothing of the account's budget, so one address cannot use
  // the per-account limit to lock the account's owner out.
  const limits = [
    { limiter: limiter('address', options.maxPerAddress), subject: addressSubject },
    { limiter: limiter('pair', options.maxPerAccountAndAddress), subject: pairSubject },
    { limiter: limiter('account', options.maxPerAccount), subject: accountSubject },
  ];
  return {
    admit: async (email, client) => {
      for (const { limiter, subject } of limits) {
        const decision = await limiter.consume(subject(email, client));
        if (!decision.allowed) return decision.retryAfterSeconds;
      }
      return null;
    },
    succeeded: async (email, client) => {
      await Promise.all(limits.map(({ limiter, subject }) => limiter.refund(subject(email, client))));
    },
  };
}

/** Sign-ups per client address (each sign-up brings fresh keys with fresh quota windows). */
export function createSignUpThrottle(options: {
  redis: RedisClient;
  prefix: string;
  max: number;
  windowSeconds: number;
}): SignUpThrottle {
  const perAddress = createAttemptLimiter({
    redis: options.redis,
    prefix: options.prefix,
    name: 'console:sign-up:address',
    max: options.max,
    windowSeconds: options.windowSeconds,
  });
  return {
    admit: async (client) => {
      const decision = await perAddress.consume(addressSubject('', client));
      return decision.allowed ? null : decision.retryAfterSeconds;
    },
  };
}

const accountSubject = (email: string): string => digest(email.trim().toLowerCase());
const addressSubject = (_email: string, client: string): string => digest(client);
const pairSubject = (email: string, client: string): string =>
  digest(`${email.trim().toLowerCase()}\n${client}`);

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
