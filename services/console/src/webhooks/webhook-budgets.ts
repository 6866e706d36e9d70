import type { RedisClient } from '@directory/config';
import { createAttemptLimiter, type AttemptDecision } from '@directory/keyed-access';

/** What an account may do to its webhooks per window (config WEBHOOK_TEST_EVENTS_MAX, …_CHANGES_MAX, …_WINDOW_S). */
export type WebhookBudgetLimits = {
  testEventsMax: number;
  endpointChangesMax: number;
  windowSeconds: number;
};

/**
 * Per-account budgets, shared by every console process through Redis: test events (each one is an
 * attempt the worker makes for the account) and endpoint changes (adding, enabling, disabling or
 * deleting one). Counted before the work is done, so parallel requests cannot slip past the limit.
 */
export type WebhookBudgets = {
  testEvent: (accountId: string) => Promise<AttemptDecision>;
  endpointChange: (accountId: string) => Promise<AttemptDecision>;
};

export function createWebhookBudgets(options: {
  redis: RedisClient;
  prefix: string;
  limits: WebhookBudgetLimits;
}): WebhookBudgets {
  const budget = (name: string, max: number) =>
    createAttemptLimiter({
      redis: options.redis,
      prefix: options.prefix,
      name: `console:webhooks:${name}`,
      max,
      windowSeconds: options.limits.windowSeconds,
      // A flood's refusals then cost no Redis round trip.
      blockInMemory: true,
    });
  const testEvents = budget('test-events', options.limits.testEventsMax);
  const endpointChanges = budget('endpoint-changes', options.limits.endpointChangesMax);
  return {
    testEvent: (accountId) => testEvents.consume(accountId),
    endpointChange: (accountId) => endpointChanges.consume(accountId),
  };
}
