import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientContext, Result } from 'ioredis';
import type { RedisClient } from '@directory/config';
import { UNVOUCHED, keyHashTag, vouchRedisKey, type ActiveApiKey, type Admit } from '@directory/keys';
import { TooManyAttemptsError } from './attempt-limiter.js';
import { KEY_POLICY_NAME, rateLimitField, rateLimitPolicyField } from './ratelimit-fields.js';

declare module 'ioredis' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface RedisCommander<Context extends ClientContext> {
    // The scripts below, defined with defineCommand: sent by their digest (EVALSHA) once Redis has them.
    /** ADMIT_KEY_SCRIPT. */
    directoryAdmitKey(...keysThenArgs: Array<string | number>): Result<number[], Context>;
    /** COUNT_ACCOUNT_SCRIPT. */
    directoryCountAccount(...keysThenArgs: Array<string | number>): Result<number[], Context>;
    /** GIVE_BACK_SCRIPT. */
    directoryGiveBackRequest(...keysThenArgs: Array<string | number>): Result<number, Context>;
    /** CHARGE_SCRIPT. */
    directoryChargeUnits(...keysThenArgs: Array<string | number>): Result<number[], Context>;
    /** REFUND_SCRIPT. */
    directoryRefundUnits(...keysThenArgs: Array<string | number>): Result<number, Context>;
  }
}

export type RequestQuotaOptions = {
  /** Shared by every API and MCP process: the counts live in Redis, not in the process. */
  redis: RedisClient;
  /** Redis key prefix (config REDIS_PREFIX; tests pass their own). */
  prefix: string;
  /** The key's own quota per window (docs/api.md, "Rate limits"), with its RateLimit-* headers. */
  keyMax: number;
  /** What one account may spend per window across all its keys (an extra check, no headers of its own). */
  accountMax: number;
  windowSeconds: number;
};

/** A counter's value after this request, and how long its window has left then (ms, Redis's clock). */
type WindowCount = { count: number; ttlMs: number };

/** What the admission step made of a request of a key whose vouch held. */
export type Admission =
  | { kind: 'admitted'; key: WindowCount; account: WindowCount }
  | { kind: 'keyExhausted'; key: WindowCount }
  | { kind: 'accountExhausted'; key: WindowCount; account: WindowCount };

export type RequestQuotas = {
  /** For the key lookup: confirms the key's vouch and counts both quotas, in one Redis command. */
  admit: Admit<Admission>;
  /**
   * Sets the RateLimit-* headers and refuses a request over a quota (429, thrown); an admitted request
   * is remembered so that its point can be given back (see registerRequestQuotas).
   */
  apply: (request: FastifyRequest, reply: FastifyReply, key: ActiveApiKey, admission: Admission) => void;
};

/** Thrown when a key's window is exhausted; mapped to a 429 problem (headers are already set). */
export class RateLimitExceededError extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(`the request quota of this API key is exhausted; retry after ${retryAfterSeconds} seconds`);
    this.name = 'RateLimitExceededError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A key's request counter: in its key's hash tag, with its vouch (one slot for ADMIT_KEY_SCRIPT). */
export function rateLimitRedisKey(prefix: string, keyId: string): string {
  return `${prefix}:rate-limit:${keyHashTag(keyId)}`;
}

/**
 * An account's request counter across its keys of one mode: one key alone in its script
 * (COUNT_ACCOUNT_SCRIPT). Sandbox requests have a ceiling of their own, so building against the sandbox
 * never spends what the account's live keys may serve.
 */
export function accountCounterRedisKey(
  prefix: string,
  key: Pick<ActiveApiKey, 'accountId' | 'mode'>,
): string {
  const live = `${prefix}:account-requests:${key.accountId}`;
  return key.mode === 'live' ? live : `${live}:${key.mode}`;
}

// Counts one request in a fixed window: a new counter gets the window's expiry in the same script, so
// no counter is ever left without one. ARGV[1]: the window in ms.
const COUNT = `
  local function count(counter)
    local value = redis.call('INCR', counter)
    local left = redis.call('PTTL', counter)
    if left < 0 then
      redis.call('PEXPIRE', counter, ARGV[1])
      left = tonumber(ARGV[1])
    end
    return value, left
  end
`;

/**
 * The per-request admission, in two scripts (one per cluster slot: the key's, then its account's):
 *
 * 1. the remembered key row's vouch must still hold the row's version, else nothing is counted
 *    (failed authentication spends no quota; the lookup then reads the row again);
 * 2. the key's fixed window is counted; a key over its quota is refused and the account not counted;
 * 3. only then the account's fixed window (same length, its own start) is counted; over its ceiling,
 *    refused (the key's count stays: the request was the key's to make).
 *
 * ADMIT_KEY_SCRIPT (1 and 2): KEYS the vouch and the key's counter; ARGV the window in ms, the vouched
 * version ('' when the row was read just now), the key's quota. Answers 0 (unvouched), 1 (over the
 * quota) or 2 (counted), with the count and the ms its window has left. COUNT_ACCOUNT_SCRIPT (3): KEYS
 * the account's counter; ARGV the window in ms; answers the count and the ms left.
 */
const ADMIT_KEY_SCRIPT = `${COUNT}
  if ARGV[2] ~= '' and redis.call('GET', KEYS[1]) ~= ARGV[2] then return {0} end
  local key, keyLeft = count(KEYS[2])
  if key > tonumber(ARGV[3]) then return {1, key, keyLeft} end
  return {2, key, keyLeft}
`;

const COUNT_ACCOUNT_SCRIPT = `${COUNT}
  local account, accountLeft = count(KEYS[1])
  return {account, accountLeft}
`;

/**
 * Takes one request off a counter (KEYS[1]), atomically, if the counter is still in the window the
 * request was counted in (ARGV[1]: the most milliseconds that window can have left) and above zero: a
 * give-back must never create a counter, leave one without expiry, or spend into a later window.
 * Answers the counter's new value, or -1 when there was nothing to give back.
 */
const GIVE_BACK_SCRIPT = `
  local left = redis.call('PTTL', KEYS[1])
  local value = tonumber(redis.call('GET', KEYS[1]))
  if left > 0 and left <= tonumber(ARGV[1]) and value ~= nil and value > 0 then
    return redis.call('DECR', KEYS[1])
  end
  return -1
`;

/**
 * Charges ARGV[2] more units to a counter (KEYS[1]) if they fit under its quota (ARGV[3]): INCRBY,
 * keeping the window's expiry (a new counter gets the window, ARGV[1] ms). Units that do not fit are not
 * charged, so a refused charge spends nothing. Answers 1 (charged) or 0 (refused), with the counter's
 * value and the ms its window has left.
 */
const CHARGE_SCRIPT = `
  local value = tonumber(redis.call('GET', KEYS[1]) or '0')
  if value + tonumber(ARGV[2]) > tonumber(ARGV[3]) then
    return {0, value, redis.call('PTTL', KEYS[1])}
  end
  local charged = redis.call('INCRBY', KEYS[1], ARGV[2])
  local left = redis.call('PTTL', KEYS[1])
  if left < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    left = tonumber(ARGV[1])
  end
  return {1, charged, left}
`;

/**
 * Takes ARGV[2] units back off a counter (KEYS[1]) charged by CHARGE_SCRIPT in the window that has at
 * most ARGV[1] ms left, as GIVE_BACK_SCRIPT does for one request. Answers the new value, or -1.
 */
const REFUND_SCRIPT = `
  local left = redis.call('PTTL', KEYS[1])
  local value = tonumber(redis.call('GET', KEYS[1]))
  if left > 0 and left <= tonumber(ARGV[1]) and value ~= nil and value >= tonumber(ARGV[2]) then
    return redis.call('DECRBY', KEYS[1], ARGV[2])
  end
  return -1
`;

/** What charging work done outside a request to an account came to. */
export type AccountCharge = { withinCeiling: true } | { withinCeiling: false; retryAfterMs: number };

/**
 * Charges work the platform does for an account outside any request (a webhook delivery attempt) to the
 * account's live ceiling (ACCOUNT_RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_S), the counter its live keys'
 * requests count in. Units that do not fit are not charged; the answer says when the window resets.
 */
export function createAccountCharger(options: {
  redis: RedisClient;
  prefix: string;
  accountMax: number;
  windowSeconds: number;
}): (accountId: string, units: number) => Promise<AccountCharge> {
  options.redis.defineCommand('directoryChargeUnits', { numberOfKeys: 1, lua: CHARGE_SCRIPT });
  const windowMs = options.windowSeconds * 1000;
  return async (accountId, units) => {
    const [charged = 0, , ttlMs = 0] = await options.redis.directoryChargeUnits(
      accountCounterRedisKey(options.prefix, { accountId, mode: 'live' }),
      windowMs,
      units,
      options.accountMax,
    );
    return charged === 1
      ? { withinCeiling: true }
      : { withinCeiling: false, retryAfterMs: Math.max(ttlMs, 1) };
  };
}

/** What charging more units to a request's key and account came to. */
export type Charge =
  { withinQuota: true } | { withinQuota: false; which: 'key' | 'account'; retryAfterSeconds: number };

/** Charges units of work to the key (and account) of an admitted request; see `chargeRequest`. */
type Charger = (units: number) => Promise<Charge>;

// The charger of each admitted request, set by `apply`: a route reaches it with the request alone, as it
// reaches the key with requireApiKey.
const chargers = new WeakMap<FastifyRequest, Charger>();

/**
 * Charges `units` more request units to the request's key and account, beyond the one its admission
 * counted (a route whose cost grows with its answer, like an export). Units that would pass the key's
 * quota or the account's ceiling are not charged: the answer says which was exhausted and when its
 * window resets, and the route stops there. Throws for a request that was not admitted.
 */
export async function chargeRequest(request: FastifyRequest, units: number): Promise<Charge> {
  const charger = chargers.get(request);
  if (charger === undefined) throw new Error('chargeRequest needs a request admitted by the key quotas');
  return charger(units);
}

/**
 * An admitted request's counts, with when they were taken (monotonic ms), and whether its handler was
 * reached: only these are given back.
 */
type Counted = {
  key: ActiveApiKey;
  admission: Extract<Admission, { kind: 'admitted' }>;
  at: number;
  reachedHandler: boolean;
};

/**
 * The key's quota and the account's ceiling for every route of `scope` (docs/api.md, "Rate limits" and
 * "Abuse limits"): counted in the key lookup's admission step (before anything else of the request is
 * done), with the IETF httpapi draft's headers: its current structured fields (ratelimit-fields.ts)
 * `RateLimit-Policy: "key";q=<max>;w=<window>` and `RateLimit: "key";r=<remaining>;t=<reset seconds>`,
 * and beside them, as every 1.x client has had them, `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset` (seconds until the key's window resets). A 429
 * carries `Retry-After`: the window's remaining time rounded up to whole seconds, never earlier than the
 * window's end.
 *
 * A request refused before its handler runs (an unreadable body, an MCP batch) spends nothing, and a
 * 304 Not Modified spends none of the key's quota (as GitHub does; the account's ceiling keeps it, the
 * search still ran): it is counted like any other, since only the answer tells, and given back before
 * the answer is sent, so its `RateLimit-Remaining` and the key's next request already see it uncounted.
 */
export function registerRequestQuotas(scope: FastifyInstance, options: RequestQuotaOptions): RequestQuotas {
  const policy = rateLimitPolicyField(KEY_POLICY_NAME, options.keyMax, options.windowSeconds);
  const windowMs = options.windowSeconds * 1000;
  const counted = new WeakMap<FastifyRequest, Counted>();

  // By digest rather than the script's text each time (admission runs on every request).
  options.redis.defineCommand('directoryAdmitKey', { numberOfKeys: 2, lua: ADMIT_KEY_SCRIPT });
  options.redis.defineCommand('directoryCountAccount', { numberOfKeys: 1, lua: COUNT_ACCOUNT_SCRIPT });
  options.redis.defineCommand('directoryGiveBackRequest', { numberOfKeys: 1, lua: GIVE_BACK_SCRIPT });
  options.redis.defineCommand('directoryChargeUnits', { numberOfKeys: 1, lua: CHARGE_SCRIPT });
  options.redis.defineCommand('directoryRefundUnits', { numberOfKeys: 1, lua: REFUND_SCRIPT });

  // The key's counter first, then the account's (another cluster slot); when the account's ceiling
  // refuses, the key's units are given back: nothing is charged for work not done.
  const chargerFor =
    (key: ActiveApiKey): Charger =>
    async (units) => {
      const keyCounter = rateLimitRedisKey(options.prefix, key.id);
      const [keyCharged = 0, , keyTtlMs = 0] = await options.redis.directoryChargeUnits(
        keyCounter,
        windowMs,
        units,
        options.keyMax,
      );
      if (keyCharged === 0) {
        return {
          withinQuota: false,
          which: 'key',
          retryAfterSeconds: Math.max(1, Math.ceil(keyTtlMs / 1000)),
        };
      }
      const [accountCharged = 0, , accountTtlMs = 0] = await options.redis.directoryChargeUnits(
        accountCounterRedisKey(options.prefix, key),
        windowMs,
        units,
        options.accountMax,
      );
      if (accountCharged === 0) {
        await options.redis.directoryRefundUnits(keyCounter, keyTtlMs, units);
        return {
          withinQuota: false,
          which: 'account',
          retryAfterSeconds: Math.max(1, Math.ceil(accountTtlMs / 1000)),
        };
      }
      return { withinQuota: true };
    };

  const admit: Admit<Admission> = async (key, vouchedVersion) => {
    const [outcome = 0, keyCount = 0, keyTtlMs = 0] = await options.redis.directoryAdmitKey(
      vouchRedisKey(options.prefix, key.id),
      rateLimitRedisKey(options.prefix, key.id),
      windowMs,
      vouchedVersion ?? '',
      options.keyMax,
    );
    if (outcome === 0) return UNVOUCHED;
    const keyWindow = { count: keyCount, ttlMs: keyTtlMs };
    if (outcome === 1) return { kind: 'keyExhausted', key: keyWindow };
    const [accountCount = 0, accountTtlMs = 0] = await options.redis.directoryCountAccount(
      accountCounterRedisKey(options.prefix, key),
      windowMs,
    );
    const account = { count: accountCount, ttlMs: accountTtlMs };
    if (accountCount > options.accountMax) return { kind: 'accountExhausted', key: keyWindow, account };
    return { kind: 'admitted', key: keyWindow, account };
  };

  // What is left of the key's window, in the older header and the structured field alike (set again
  // by a give-back, which leaves the reset as it was).
  const setRemaining = (reply: FastifyReply, keyCount: number, resetSeconds: number): void => {
    const remaining = Math.max(0, options.keyMax - keyCount);
    reply.header('ratelimit-remaining', remaining);
    reply.header('ratelimit', rateLimitField(KEY_POLICY_NAME, remaining, resetSeconds));
  };

  const apply: RequestQuotas['apply'] = (request, reply, key, admission) => {
    const resetSeconds = Math.ceil(admission.key.ttlMs / 1000);
    reply.header('ratelimit-limit', options.keyMax);
    setRemaining(reply, admission.key.count, resetSeconds);
    reply.header('ratelimit-reset', resetSeconds);
    if (admission.kind === 'keyExhausted') {
      reply.header('retry-after', resetSeconds);
      throw new RateLimitExceededError(resetSeconds);
    }
    if (admission.kind === 'accountExhausted') {
      const retryAfter = Math.max(1, Math.ceil(admission.account.ttlMs / 1000));
      throw new TooManyAttemptsError('accountCeiling', retryAfter);
    }
    counted.set(request, { key, admission, at: performance.now(), reachedHandler: false });
    chargers.set(request, chargerFor(key));
  };

  const giveBack = async (
    request: FastifyRequest,
    reply: FastifyReply,
    spent: Counted,
    withAccount: boolean,
  ): Promise<void> => {
    // Each count lives in the window it was taken in, which had `ttlMs` left then; a counter with more
    // time left than that now is a later window's, not ours.
    const elapsed = Math.floor(performance.now() - spent.at);
    try {
      // One command per counter: they live in different slots on a cluster.
      const [keyCount] = await Promise.all([
        options.redis.directoryGiveBackRequest(
          rateLimitRedisKey(options.prefix, spent.key.id),
          spent.admission.key.ttlMs - elapsed,
        ),
        withAccount
          ? options.redis.directoryGiveBackRequest(
              accountCounterRedisKey(options.prefix, spent.key),
              spent.admission.account.ttlMs - elapsed,
            )
          : null,
      ]);
      if (keyCount >= 0) setRemaining(reply, keyCount, Math.ceil(spent.admission.key.ttlMs / 1000));
    } catch (error) {
      // Failing closed: the request simply stays counted (its headers already say so).
      request.log.warn({ err: error }, 'could not give back the quota of a request; it stays counted');
    }
  };

  scope.addHook('preHandler', (request, _reply, done) => {
    const spent = counted.get(request);
    if (spent !== undefined) spent.reachedHandler = true;
    done();
  });
  scope.addHook('onSend', async (request, reply, payload) => {
    const spent = counted.get(request);
    counted.delete(request);
    // Refused before its handler: as if never counted. A 304: the key's quota only (docs/security.md:
    // the search still ran, so the account's ceiling keeps it).
    if (spent !== undefined && !spent.reachedHandler) await giveBack(request, reply, spent, true);
    else if (spent !== undefined && reply.statusCode === 304) await giveBack(request, reply, spent, false);
    if (reply.hasHeader('ratelimit-limit')) reply.header('ratelimit-policy', policy);
    return payload;
  });
  return { admit, apply };
}
