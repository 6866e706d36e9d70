export {
  appendEvents,
  readStreams,
  allPlaceIds,
  lastPosition,
  countStoredSince,
  type AppendResult,
  type StoredSince,
} from './events.repository.js';
export {
  savePlaceStates,
  markProjected,
  findLaggingPlaceIds,
  countServedPlaces,
  countProjections,
  streamProjections,
  replacePlaceStates,
  databaseNow,
  countPlacesUpdatedSince,
  type PlaceRow,
  type StoredProjection,
} from './places.repository.js';
export {
  recordDeadLetters,
  listDeadLetters,
  getDeadLetters,
  markRedriven,
  type DeadLetter,
  type DeadLetterInput,
} from './dead-letters.repository.js';
export {
  recordProjectionFailures,
  clearProjectionFailures,
  releaseProjectionFailures,
  listProjectionFailures,
  countProjectionFailures,
  type ProjectionFailure,
  type ProjectionFailureInput,
} from './projection-failures.repository.js';
export {
  countPendingDeadLetters,
  newestEventRecordedAt,
  readProjectionLag,
  streamPositionOf,
  type ProjectionLag,
} from './operations.repository.js';
