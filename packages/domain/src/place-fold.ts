import { contentExtrasOf } from './doctor-extras.js';
import { toDoctor } from './doctor.js';
import type { PlaceEvent } from './events.js';
import {
  evolve,
  initialPlaceState,
  orderedStream,
  type PlaceState,
  type StoredPlaceEvent,
} from './place-state.js';

// The events that can change a record's public fields: its observation, its publication (country and
// slugs: the profile URL) and whether it is verified. The others only change whether it is served.
const PUBLIC_FIELD_EVENTS: ReadonlySet<PlaceEvent['type']> = new Set([
  'place.crawled',
  'place.published',
  'place.verified',
  'place.unverified',
]);

// Only `profileUrl` needs the site's origin, and it is the same for every record of a deployment: any
// origin tells two states of a record apart as well as the real one.
const ANY_ORIGIN = 'https://directory.invalid';

/**
 * Folds a whole stream into the place's state, in `orderedStream` order (so a late or replayed event
 * converges to the same state), and dates the state's public fields: `updatedAt` is the `occurredAt` of
 * the latest event after which the public record (the Doctor record and its content extras, as they
 * would be served) differs from before. A crawl that found everything as it was, or an event that only
 * changes whether the record is served, leaves it as it is.
 */
export function foldPlace(placeId: string, events: ReadonlyArray<StoredPlaceEvent>): PlaceState {
  let state = initialPlaceState(placeId);
  const candidates: PublicFieldsCandidate[] = [];
  for (const event of orderedStream(placeId, events)) {
    state = evolve(state, event);
    if (PUBLIC_FIELD_EVENTS.has(event.type)) candidates.push({ state, occurredAt: event.occurredAt });
  }
  return { ...state, updatedAt: lastPublicChange(candidates) };
}

/** The state after an event that can change the public fields, and when that event happened. */
type PublicFieldsCandidate = { state: PlaceState; occurredAt: string };

/**
 * When the public fields last changed: the first event of the run of events, at the end of the stream,
 * after which they are what they are now. Found walking back from the newest; the public record is built
 * only where what it is built from (observation, publication, verified) differs from the next newer
 * candidate's, so a place crawled a hundred times builds it about twice, not a hundred times.
 */
function lastPublicChange(candidates: ReadonlyArray<PublicFieldsCandidate>): string | null {
  const newest = candidates.at(-1);
  if (newest === undefined || !hasPublicFields(newest.state)) return null;
  // Built only if an older state with other inputs has a public record to compare it with.
  let current: string | undefined;
  let changedAt = newest.occurredAt;
  let newer = newest.state;
  for (let index = candidates.length - 2; index >= 0; index -= 1) {
    const candidate = candidates[index];
    if (candidate === undefined || !hasPublicFields(candidate.state)) break;
    // The same inputs make the same record; other inputs may still make it (a field the record drops).
    if (!sameInputs(candidate.state, newer)) {
      current ??= publicFieldsOf(newest.state);
      if (publicFieldsOf(candidate.state) !== current) break;
    }
    newer = candidate.state;
    changedAt = candidate.occurredAt;
  }
  return changedAt;
}

/**
 * Whether two states build their public record from the same observation, publication and verified
 * flag: by reference first (an event that left them as they were keeps the objects), else as text. Far
 * cheaper than building the record.
 */
function sameInputs(older: PlaceState, newer: PlaceState): boolean {
  if (older.verified !== newer.verified) return false;
  if (older.observed === newer.observed && older.publication === newer.publication) return true;
  return (
    JSON.stringify([older.observed, older.publication]) ===
    JSON.stringify([newer.observed, newer.publication])
  );
}

/** A record exists once the place has both a crawl and a publication. */
function hasPublicFields(state: PlaceState): boolean {
  return state.observed !== null && state.publication !== null;
}

/** The public record a state (with public fields) would serve, as text to compare. */
function publicFieldsOf(state: PlaceState): string {
  const doctor = toDoctor(state, { siteOrigin: ANY_ORIGIN });
  return JSON.stringify([doctor, contentExtrasOf(state, doctor)]);
}
