import type { ToDoctorOptions } from '../places/doctor.js';
import { foldPlaceForProjection } from '../places/place-fold.js';
import type { StoredPlaceEvent } from '../events/place-state.js';
import { storedMergeOf, type StoredMerge } from '../places/merges.js';
import { toSearchDocument, type SearchDocument, type Tombstone } from './search-document.js';

/**
 * What a place's event stream projects to: the document the index serves (or the tombstone that keeps
 * a hidden place out of it) and the stream version it was folded at. The places table stores it, the
 * index receives it with that version as its external version.
 */
export type PlaceProjection = {
  placeId: string;
  stateVersion: number;
  document: SearchDocument | Tombstone;
  /**
   * The place's own merge, stored beside the document (not in it: the index never needs it) so that a
   * read of a merged-away id or profile page can say where it went. Absent: not merged away.
   */
  merge?: StoredMerge;
};

/** Projects one place: folds its whole stream into state, then turns the state into its index document. */
export function projectPlace(
  placeId: string,
  events: ReadonlyArray<StoredPlaceEvent>,
  options: ToDoctorOptions,
): PlaceProjection {
  const { state, record } = foldPlaceForProjection(placeId, events, options);
  const merge = storedMergeOf(state);
  const document = toSearchDocument(state, options, record);
  return { placeId, stateVersion: state.version, document, ...(merge === null ? {} : { merge }) };
}
