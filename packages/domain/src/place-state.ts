import { assertNever } from './assert-never.js';
import type { Observed, PlaceEvent, Publication } from './events.js';

/** An event as read back from the store; `position` is the global store position the database gave it. */
export type StoredPlaceEvent = PlaceEvent & { position: number };

export type PlaceState = {
  placeId: string;
  /** Highest store position applied; 0 if none. Used as the external version in the search index. */
  version: number;
  observed: Observed | null;
  /** `occurredAt` of the crawl `observed` came from. */
  observedAt: string | null;
  /** The last publication, kept after unpublishing for reference. */
  publication: Publication | null;
  published: boolean;
  suppressedReason: string | null;
  closed: boolean;
  verified: boolean;
};

export function initialPlaceState(placeId: string): PlaceState {
  return {
    placeId,
    version: 0,
    observed: null,
    observedAt: null,
    publication: null,
    published: false,
    suppressedReason: null,
    closed: false,
    verified: false,
  };
}

/**
 * Applies one event. Pure. A stored event also raises `version` to its position, so folding by hand
 * gives the same version as `foldPlace`.
 */
export function evolve(state: PlaceState, event: PlaceEvent | StoredPlaceEvent): PlaceState {
  const version = 'position' in event ? Math.max(state.version, event.position) : state.version;
  const next = { ...state, version };
  switch (event.type) {
    case 'place.crawled':
      // A crawl is a full snapshot: it replaces what we knew, it does not merge.
      return { ...next, observed: event.payload.observed, observedAt: event.occurredAt };
    case 'place.published':
      return {
        ...next,
        published: true,
        publication: {
          country: event.payload.country,
          citySlug: event.payload.citySlug,
          profileSlug: event.payload.profileSlug,
        },
      };
    case 'place.unpublished':
      return { ...next, published: false };
    case 'place.suppressed':
      return { ...next, suppressedReason: event.payload.reason };
    case 'place.unsuppressed':
      return { ...next, suppressedReason: null };
    case 'place.closed':
      return { ...next, closed: true };
    case 'place.reopened':
      return { ...next, closed: false };
    case 'place.verified':
      return { ...next, verified: true };
    case 'place.unverified':
      return { ...next, verified: false };
    default:
      return assertNever(event);
  }
}

/**
 * Folds a whole stream. The result depends only on the set of events, not on the order they arrived in
 * or on duplicates, so a late or replayed event converges to the same state: events are deduplicated by
 * `eventId`, then applied in (`occurredAt` instant, `eventId`) order.
 */
export function foldPlace(placeId: string, events: ReadonlyArray<StoredPlaceEvent>): PlaceState {
  const byEventId = new Map<string, StoredPlaceEvent>();
  let version = 0;
  for (const event of events) {
    if (event.placeId !== placeId) {
      throw new Error(`Event ${event.eventId} belongs to place ${event.placeId}, not ${placeId}`);
    }
    version = Math.max(version, event.position);
    const seen = byEventId.get(event.eventId);
    // The store keeps the first copy of an eventId, so the lowest position wins whatever the input order.
    if (seen === undefined || event.position < seen.position) byEventId.set(event.eventId, event);
  }
  const ordered = [...byEventId.values()].sort(compareEvents);
  const state = ordered.reduce<PlaceState>(evolve, initialPlaceState(placeId));
  return { ...state, version };
}

/** Served means visible in search and on single fetch. */
export function isServed(state: PlaceState): boolean {
  return (
    state.published &&
    state.publication !== null &&
    state.observed !== null &&
    state.suppressedReason === null &&
    !state.closed
  );
}

function compareEvents(a: PlaceEvent, b: PlaceEvent): number {
  // Compare instants, not strings: "…T01:00:00+01:00" and "…T00:00:00Z" are the same moment.
  const byTime = Date.parse(a.occurredAt) - Date.parse(b.occurredAt);
  if (byTime !== 0) return byTime;
  if (a.eventId === b.eventId) return 0;
  return a.eventId < b.eventId ? -1 : 1;
}
