import { contentExtrasOf, type ContentExtras } from './doctor-extras.js';
import { toDoctor, type Doctor, type ToDoctorOptions } from './doctor.js';
import type { PlaceEvent } from '../events/events.js';
import {
  evolve,
  initialPlaceState,
  orderedStream,
  type PlaceState,
  type StoredPlaceEvent,
} from '../events/place-state.js';

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

/** A record's public fields as built from a state: its Doctor record and its content extras. */
export type PublicRecord = { doctor: Doctor; contentExtras: ContentExtras };

/**
 * Folds a whole stream into the place's state, in `orderedStream` order (so a late or replayed event
 * converges to the same state), and dates the state's public fields: `updatedAt` is the `occurredAt` of
 * the latest event after which the public record (the Doctor record and its content extras, as they
 * would be served) differs from before. A crawl that found everything as it was, or an event that only
 * changes whether the record is served, leaves it as it is.
 */
export function foldPlace(placeId: string, events: ReadonlyArray<StoredPlaceEvent>): PlaceState {
  return foldPlaceForProjection(placeId, events, { siteOrigin: ANY_ORIGIN }).state;
}

/**
 * `foldPlace` for the projection: with the deployment's origin, and the final state's public record when
 * the fold had to build it to date a change, so the projection does not build it again.
 */
export function foldPlaceForProjection(
  placeId: string,
  events: ReadonlyArray<StoredPlaceEvent>,
  options: ToDoctorOptions,
): { state: PlaceState; record: PublicRecord | undefined } {
  let state = initialPlaceState(placeId);
  const candidates: PublicFieldsCandidate[] = [];
  for (const event of orderedStream(placeId, events)) {
    state = evolve(state, event);
    if (PUBLIC_FIELD_EVENTS.has(event.type)) candidates.push({ state, occurredAt: event.occurredAt });
  }
  const { changedAt, newestRecord } = lastPublicChange(candidates, options);
  return { state: { ...state, updatedAt: changedAt }, record: newestRecord?.record };
}

/** The state after an event that can change the public fields, and when that event happened. */
type PublicFieldsCandidate = { state: PlaceState; occurredAt: string };

/** A public record, and the same as text to compare. */
type BuiltRecord = { record: PublicRecord; text: string };

/**
 * When the public fields last changed: the first event of the run of events, at the end of the stream,
 * after which they are what they are now. Found walking back from the newest; a record is built only
 * where what it is built from (observation, publication, verified) differs from the next newer
 * candidate's, so a place crawled a hundred times builds it about twice, not a hundred times. The events
 * after the newest candidate change none of those inputs, so its record is the final state's.
 */
function lastPublicChange(
  candidates: ReadonlyArray<PublicFieldsCandidate>,
  options: ToDoctorOptions,
): { changedAt: string | null; newestRecord: BuiltRecord | undefined } {
  const newest = candidates.at(-1);
  if (newest === undefined || !hasPublicFields(newest.state)) {
    return { changedAt: null, newestRecord: undefined };
  }
  // Built only if an older state with other inputs has a record to compare it with.
  let current: BuiltRecord | undefined;
  let changedAt = newest.occurredAt;
  let newer = newest.state;
  for (let index = candidates.length - 2; index >= 0; index -= 1) {
    const candidate = candidates[index];
    if (candidate === undefined || !hasPublicFields(candidate.state)) break;
    // The same inputs make the same record; other inputs may still make it (a field the record drops).
    if (!sameInputs(candidate.state, newer)) {
      current ??= publicRecordOf(newest.state, options);
      if (publicRecordOf(candidate.state, options).text !== current.text) break;
    }
    newer = candidate.state;
    changedAt = candidate.occurredAt;
  }
  return { changedAt, newestRecord: current };
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

/** The public record a state (with public fields) would serve. */
function publicRecordOf(state: PlaceState, options: ToDoctorOptions): BuiltRecord {
  const doctor = toDoctor(state, options);
  const contentExtras = contentExtrasOf(state, doctor);
  return { record: { doctor, contentExtras }, text: JSON.stringify([doctor, contentExtras]) };
}
