import type { RawEvent } from './event-builders.js';

type Fact = 'published' | 'suppressed' | 'closed' | 'crawled';
type Stamp = { occurredMs: number; eventId: string };

/** What each event type says about one of the facts that decide whether a place is served. */
const EFFECTS: Readonly<Record<string, readonly [Fact, boolean]>> = {
  'place.crawled': ['crawled', true],
  'place.published': ['published', true],
  'place.unpublished': ['published', false],
  'place.suppressed': ['suppressed', true],
  'place.unsuppressed': ['suppressed', false],
  'place.closed': ['closed', true],
  'place.reopened': ['closed', false],
};

export type ServedTracker = { record(event: RawEvent): void; isServed(): boolean };

/**
 * Tracks, per fact, the latest event by (occurredAt, eventId), the order the fold uses, so the
 * estimate is right even for out-of-order events. Served = published, crawled, not suppressed/closed.
 */
export function createServedTracker(): ServedTracker {
  const latest = new Map<Fact, Stamp & { value: boolean }>();
  return {
    record(event) {
      const effect = EFFECTS[String(event['type'])];
      if (effect === undefined) return;
      const [fact, value] = effect;
      const stamp = {
        occurredMs: Date.parse(String(event['occurredAt'])),
        eventId: String(event['eventId']),
      };
      const current = latest.get(fact);
      if (current === undefined || isLater(stamp, current)) latest.set(fact, { ...stamp, value });
    },
    isServed() {
      const is = (fact: Fact) => latest.get(fact)?.value === true;
      return is('published') && is('crawled') && !is('suppressed') && !is('closed');
    },
  };
}

function isLater(a: Stamp, b: Stamp): boolean {
  return a.occurredMs !== b.occurredMs ? a.occurredMs > b.occurredMs : a.eventId > b.eventId;
}
