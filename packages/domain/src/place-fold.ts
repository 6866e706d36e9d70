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
 * after which they are what they are now. Found walking back from the newest, so a place crawled a
 * hundred times builds its public record about twice, not a hundred times.
 */
function lastPublicChange(candidates: ReadonlyArray<PublicFieldsCandidate>): string | null {
  let current: string | null | undefined;
  let changedAt: string | null = null;
  for (let index = candidates.length - 1; index >= 0; index -= 1) {
    const candidate = candidates[index];
    if (candidate === undefined) break;
    const fields = publicFieldsOf(candidate.state);
    current ??= fields;
    if (fields === null || fields !== current) break;
    changedAt = candidate.occurredAt;
  }
  return changedAt;
}

/** The public record a state would serve, as text to compare; null before a crawl and a publication. */
function publicFieldsOf(state: PlaceState): string | null {
  if (state.observed === null || state.publication === null) return null;
  const doctor = toDoctor(state, { siteOrigin: ANY_ORIGIN });
  return JSON.stringify([doctor, contentExtrasOf(state, doctor)]);
}
