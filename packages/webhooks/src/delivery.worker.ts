import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { fail, ok } from '@directory/domain';
import { attemptSigned, type AttemptResult } from './delivery.js';
import type { WebhookOptions } from './endpoints.repository.js';
import {
  attemptError,
  decideAfterAttempt,
  disabledReason,
  isSuccessStatus,
  type AttemptDecision,
} from './outcome.js';
import { attemptsAllowed, retryDelay } from './retry-schedule.js';
import { SPENT_PAYLOAD, abandonPending, claimDelivery, type ScheduleLimits } from './schedule.js';
import { openSecret } from './secret-box.js';
import { signedHeaders } from './signing.js';

export type DeliverySettings = {
  options: WebhookOptions;
  timeoutMs: number;
  disableAfterMs: number;
  /** Delays before each retry; after the last, a failing delivery is `failed`. */
  retryDelaysMs: ReadonlyArray<number>;
  /**
   * Charges one attempt to the account's request ceiling (the live ceiling its keys' requests count
   * in); a refusal postpones the delivery to the window's end. Without it nothing is charged.
   */
  chargeAttempt?: (accountId: string) => Promise<AccountCharge>;
};

/** What charging an attempt to its account came to. */
export type AccountCharge = { withinCeiling: true } | { withinCeiling: false; retryAfterMs: number };

/**
 * What one attempt came to (for logs and tests); `postponed`: the account's request ceiling was spent,
 * nothing was sent and no attempt counted.
 */
export type AttemptOutcome = AttemptDecision | 'abandoned' | 'gone' | 'postponed';

/**
 * One attempt of a delivery the caller holds the lease of: loads it with its endpoint, refuses a target
 * the address policy refuses now (no connection is made), otherwise POSTs the stored payload with fresh
 * signature headers, and records the outcome: delivered, failed (the schedule's last attempt), the next
 * attempt's time, or the endpoint disabled.
 */
export async function attemptDelivery(
  db: Database,
  deliveryId: string,
  settings: DeliverySettings,
): Promise<AttemptOutcome> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.endpoint_id',
      'webhook_deliveries.payload',
      'webhook_deliveries.status',
      'webhook_deliveries.attempts',
      'webhook_endpoints.url',
      'webhook_endpoints.account_id',
      'webhook_endpoints.enabled',
      'webhook_endpoints.secret_ciphertext',
    ])
    .where('webhook_deliveries.id', '=', deliveryId)
    .executeTakeFirst();
  // Deleted with its endpoint, or finished by an attempt whose lease had run out.
  if (row === undefined || row.status !== 'pending') return 'gone';
  if (!row.enabled) {
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'abandoned', payload: SPENT_PAYLOAD, leased_until: null })
      .where('id', '=', deliveryId)
      .where('status', '=', 'pending')
      .execute();
    return 'abandoned';
  }

  const charge = (await settings.chargeAttempt?.(row.account_id)) ?? { withinCeiling: true };
  if (!charge.withinCeiling) {
    const resumeAt = new Date(Date.now() + charge.retryAfterMs);
    // The lease is ended by a time, not cleared: a cleared one would bring the row back among the
    // untouched deliveries a newer version of its place is folded into, where that version may be already.
    await db
      .updateTable('webhook_deliveries')
      .set({
        next_attempt_at: resumeAt,
        leased_until: sql<Date>`now()`,
        last_error: `postponed until ${resumeAt.toISOString()}: the account's request ceiling is spent`,
      })
      .where('id', '=', deliveryId)
      .execute();
    return 'postponed';
  }

  const result = await send(row, settings);
  const now = new Date();
  if (isSuccessStatus(result.statusCode)) {
    // One transaction: the console never shows a delivered attempt beside a stale "failing since".
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status: 'delivered',
          payload: SPENT_PAYLOAD,
          attempts: sql<number>`attempts + 1`,
          last_status_code: result.statusCode,
          last_error: null,
          last_latency_ms: result.latencyMs,
          delivered_at: now,
          leased_until: null,
        })
        .where('id', '=', deliveryId)
        .execute();
      await trx
        .updateTable('webhook_endpoints')
        .set({ failing_since: null, updated_at: now })
        .where('id', '=', row.endpoint_id)
        .where('failing_since', 'is not', null)
        .execute();
    });
    return 'delivered';
  }

  const error = attemptError(result.statusCode, result.error);
  const attemptsMade = row.attempts + 1;
  return db.transaction().execute(async (trx) => {
    const endpoint = await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since: sql<Date>`coalesce(failing_since, ${now})`, updated_at: now })
      .where('id', '=', row.endpoint_id)
      .returning(['failing_since'])
      .executeTakeFirst();
    const failingSince = endpoint?.failing_since ?? now;
    const decision = decideAfterAttempt({
      statusCode: result.statusCode,
      failingSince,
      now,
      disableAfterMs: settings.disableAfterMs,
      lastAttempt: attemptsMade >= attemptsAllowed(settings.retryDelaysMs),
    });
    await trx
      .updateTable('webhook_deliveries')
      .set({
        // Only a failure changes the status: another delivery's disabling may have abandoned this one.
        ...(decision === 'failed' ? { status: 'failed' as const, payload: SPENT_PAYLOAD } : {}),
        attempts: sql<number>`attempts + 1`,
        last_status_code: result.statusCode,
        last_error: error,
        last_latency_ms: result.latencyMs,
        next_attempt_at: new Date(now.getTime() + retryDelay(attemptsMade, settings.retryDelaysMs)),
        leased_until: null,
      })
      .where('id', '=', deliveryId)
      .execute();
    if (decision === 'disable') {
      await trx
        .updateTable('webhook_endpoints')
        .set({ enabled: false, disabled_reason: disabledReason(failingSince, error), updated_at: now })
        .where('id', '=', row.endpoint_id)
        .execute();
      await abandonPending(trx, row.endpoint_id);
    }
    return decision;
  });
}

async function send(
  row: { id: string; url: string; payload: string; secret_ciphertext: Buffer },
  settings: DeliverySettings,
): Promise<AttemptResult> {
  return attemptSigned({
    url: row.url,
    policy: settings.options,
    timeoutMs: settings.timeoutMs,
    body: row.payload,
    signatureHeaders: () => {
      try {
        const secret = openSecret(row.secret_ciphertext, settings.options.secretKey);
        return ok(signedHeaders(secret, row.id, row.payload, new Date()));
      } catch {
        // Sealed under another key: every attempt would fail the same way, so it is recorded like one.
        return fail('the signing secret cannot be read (was WEBHOOK_SECRET_KEY changed?)');
      }
    },
  });
}

export type DeliveryWorkerOptions = DeliverySettings &
  ScheduleLimits & {
    /** Attempts this process runs at once. */
    concurrency: number;
    /** How often an idle worker looks for due deliveries (another process may have made some). */
    pollMs: number;
    onOutcome?: (deliveryId: string, outcome: AttemptOutcome) => void;
    onError?: (error: unknown) => void;
  };

export type DeliveryWorker = {
  /** Looks for due deliveries now (the dispatcher made some) instead of at the next poll. */
  wake: () => void;
  /** Stops claiming and waits for the attempts in flight. */
  close: () => Promise<void>;
};

/**
 * The delivery worker: keeps up to `concurrency` attempts running, each claimed from PostgreSQL by the
 * fair schedule (schedule.ts), and looks for more as soon as one ends, when woken, or every `pollMs`.
 * A failure to claim (the database unavailable) is reported and retried at the next poll; an attempt
 * that fails to record its outcome keeps its lease, and its delivery is attempted again after it.
 */
export function startDeliveryWorker(db: Database, options: DeliveryWorkerOptions): DeliveryWorker {
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  let wakeSleeper: (() => void) | undefined;
  let wokenEarly = false;

  const wake = () => {
    wokenEarly = true;
    wakeSleeper?.();
  };
  const sleep = () =>
    new Promise<void>((resolve) => {
      if (wokenEarly || stopped) return resolve();
      const timer = setTimeout(done, options.pollMs);
      function done() {
        clearTimeout(timer);
        wakeSleeper = undefined;
        resolve();
      }
      wakeSleeper = done;
    });

  const run = (deliveryId: string) => {
    const attempt = attemptDelivery(db, deliveryId, options)
      .then((outcome) => options.onOutcome?.(deliveryId, outcome))
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        inFlight.delete(attempt);
        wake();
      });
    inFlight.add(attempt);
  };

  const loop = async () => {
    while (!stopped) {
      wokenEarly = false;
      try {
        while (!stopped && inFlight.size < options.concurrency) {
          const deliveryId = await claimDelivery(db, options);
          if (deliveryId === null) break;
          run(deliveryId);
        }
      } catch (error) {
        options.onError?.(error);
      }
      await sleep();
    }
  };
  const looping = loop();

  return {
    wake,
    close: async () => {
      stopped = true;
      wakeSleeper?.();
      await looping;
      await Promise.all(inFlight);
    },
  };
}
