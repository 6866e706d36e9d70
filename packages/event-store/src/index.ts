export {
  appendEvents,
  readStreams,
  readPageStreams,
  allPlaceIds,
  lastPosition,
  countStoredSince,
  type StoredSince,
} from './events.repository.js';
export {
  savePlaceStates,
  markProjected,
  findLaggingPlaceIds,
  claimLaggingPlaces,
  releaseSweepClaim,
  type SweepClaim,
  countServedPlaces,
  countProjections,
  streamProjections,
  replacePlaceStates,
  databaseNow,
  countPlacesUpdatedSince,
  readStreamVersions,
  type StoredProjection,
  type SerializedPlaceState,
} from './places.repository.js';
export { doctorDigestInDatabase, documentDigestInDatabase } from './places.repository.js';
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
  setAsideVersions,
  type ProjectionFailure,
} from './projection-failures.repository.js';
export {
  countPendingDeadLetters,
  newestEventRecordedAt,
  readProjectionLag,
  streamPositionOf,
} from './operations.repository.js';
export {
  readChanges,
  readFeedPage,
  readListedPlaces,
  readServedPlaces,
  readSnapshotHorizon,
  type ServedPlaceRecord,
} from './changes.repository.js';
export {
  FEED_CLOCK_INTERVAL_MS,
  FEED_CLOCK_RETENTION_DAYS,
  feedFenceAt,
  recordFeedClock,
} from './feed-clock.repository.js';
export {
  countSnapshotRecords,
  openExport,
  openRecordSnapshot,
  snapshotRecordPages,
  type RecordSnapshotScope,
  type StoreExport,
} from './exports.repository.js';
export { readDoctorForwards, readMergeForwards } from './merges.repository.js';
