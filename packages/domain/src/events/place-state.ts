import { assertNever } from '../shared/assert-never.js';
import type { Observed, PlaceEvent, Publication } from './events.js';

/** An event as read back from the store; `position` is the global store position the database gave it. */
export type StoredPlaceEvent = PlaceEvent & { position: number };

export type PlaceState = {
  placeId: string;
  /**
   * Stream version: how many distinct events were folded (0 if none); the external version in the index.
   * Not the highest store position: positions are handed out at insert but become visible in commit
   * order, so a fold that missed a still-uncommitted event can carry the highest position. The count of
   * committed events a fold saw only grows, so a higher version always means a more complete fold.
   */
  version: number;
  observed: Observed | null;
  /** `occurredAt` of the crawl `observed` came from (as the event wrote it; provenance normalizes it). */
  observedAt: string | null;
  /**
   * When the record's public fields (the Doctor record and its content extras) last changed: the
   * `occurredAt` of the latest event after which they differ (place-fold.ts). Null until the place has
   * both a crawl and a publication.
   */
  updatedAt: string | null;
  /** `occurredAt` of the event that last made `verified` true; null while it is false. */
  verifiedAt: string | null;
  /** The last publication, kept after unpublishing for reference. */
  publication: Publication | null;
  published: boolean;
  suppressedReason: string | null;
  closed: boolean;
  verified: boolean;
  /**
   * The place this one was merged into (its own latest `place.merged`, until a later `place.unmerged`):
   * a merged-away place is not served, and its id forwards to the survivor. Only the direct link: a chain
   * (A into B into C) is followed when read (merges.ts), since B's stream is not A's.
   */
  mergedInto: string | null;
  /** `occurredAt` of that `place.merged`; null while not merged. */
  mergedAt: string | null;
};

export function initialPlaceState(placeId: string): PlaceState {
  return {
    placeId,
    version: 0,
    observed: null,
    observedAt: null,
    updatedAt: null,
    verifiedAt: null,
    publication: null,
    published: false,
    suppressedReason: null,
    closed: false,
    verified: false,
    mergedInto: null,
    mergedAt: null,
  };
}

/**
 * Applies one (deduplicated) event. Pure. Each applied event advances the stream version by one.
 * `updatedAt` is the fold's to set (place-fold.ts): it needs the public record, built elsewhere.
 */
export function evolve(state: PlaceState, event: PlaceEvent): PlaceState {
  // One new object per event (a replay folds every stored event).
  const version = state.version + 1;
  switch (event.type) {
    case 'place.crawled':
      // A crawl is a full snapshot: it replaces what we knew, it does not merge.
      return { ...state, version, observed: event.payload.observed, observedAt: event.occurredAt };
    case 'place.published':
      return {
        ...state,
        version,
        published: true,
        publication: {
          country: event.payload.country,
          citySlug: event.payload.citySlug,
          profileSlug: event.payload.profileSlug,
        },
      };
    case 'place.unpublished':
      return { ...state, version, published: false };
    case 'place.suppressed':
      return { ...state, version, suppressedReason: event.payload.reason };
    case 'place.unsuppressed':
      return { ...state, version, suppressedReason: null };
    case 'place.closed':
      return { ...state, version, closed: true };
    case 'place.reopened':
      return { ...state, version, closed: false };
    case 'place.verified':
      // Verified again while verified: it has been since the first time.
      return {
        ...state,
        version,
        verified: true,
        verifiedAt: state.verified ? state.verifiedAt : event.occurredAt,
      };
    case 'place.unverified':
      return { ...state, version, verified: false, verifiedAt: null };
    case 'place.merged':
      // Merged again into another place: the newest merge is the one that holds.
      return { ...state, version, mergedInto: event.payload.into, mergedAt: event.occurredAt };
    case 'place.unmerged':
      return { ...state, version, mergedInto: null, mergedAt: null };
    default:
      return assertNever(event);
  }
}

/**
 * A stream as a fold applies it: deduplicated by `eventId` (the store keeps the first copy, so the
 * lowest position wins whatever the input order), in (`occurredAt` instant, `eventId`) order. The
 * result depends only on the set of events, so a late or replayed event converges to the same state.
 */
export function orderedStream(placeId: string, events: ReadonlyArray<StoredPlaceEvent>): StoredPlaceEvent[] {
  const byEventId = new Map<string, StoredPlaceEvent>();
  for (const event of events) {
    if (event.placeId !== placeId) {
      throw new Error(`Event ${event.eventId} belongs to place ${event.placeId}, not ${placeId}`);
    }
    const seen = byEventId.get(event.eventId);
    if (seen === undefined || event.position < seen.position) byEventId.set(event.eventId, event);
  }
  return [...byEventId.values()].sort(compareEvents);
}

/** Served means visible in search and on single fetch. A merged-away place is hidden like a suppressed one. */
export function isServed(state: PlaceState): boolean {
  return (
    state.published &&
    state.publication !== null &&
    state.observed !== null &&
    state.suppressedReason === null &&
    !state.closed &&
    state.mergedInto === null
  );
}

function compareEvents(a: PlaceEvent, b: PlaceEvent): number {
  // Compare instants, not strings: "…T01:00:00+01:00" and "…T00:00:00Z" are the same moment.
  const byTime = Date.parse(a.occurredAt) - Date.parse(b.occurredAt);
  if (byTime !== 0) return byTime;
  if (a.eventId === b.eventId) return 0;
  return a.eventId < b.eventId ? -1 : 1;
}
