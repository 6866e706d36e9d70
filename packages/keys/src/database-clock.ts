/**
 * The database's clock as a process can tell it. A key's revocation and expiry instants are written
 * with PostgreSQL's `now()`, so whether a key still works at a request is decided by that clock, not by
 * the host's: a host clock running behind would otherwise keep a revoked (rolled, at the end of its
 * grace period) or expired key working for as long as it lags. Every key row is read together with the
 * database's `clock_timestamp()` (a reading); the offset between the two clocks is taken from the latest
 * reading, and the instant of a check is the host's time plus that offset. The error is at most half the
 * reading's round trip; a step of the host's clock between readings is corrected by the next one (every
 * row read: a revoke or roll makes the key's next request read its row, and a remembered key that seems
 * to have stopped working is read again before it is refused).
 */
export type DatabaseClock = {
  /** The database's time now: the host's plus the measured offset (the host's alone before any reading). */
  now: () => Date;
  /** A reading: `databaseTime` returned by a query sent at `sentAt` and answered at `answeredAt` (host ms). */
  observe: (reading: ClockReading) => void;
  /** The database's clock minus the host's, in ms, from the latest reading; null before any. */
  skewMs: () => number | null;
  /** Host time in ms, to timestamp a reading's query. */
  hostNow: () => number;
};

export type ClockReading = { databaseTime: Date; sentAt: number; answeredAt: number };

/** Beyond this the clocks disagree enough to say so (key checks still follow the database's). */
export const CLOCK_SKEW_WARNING_MS = 1_000;

/** The offset a reading shows: the database's time against the middle of the query's round trip. */
export function offsetOf(reading: ClockReading): number {
  return reading.databaseTime.getTime() - (reading.sentAt + reading.answeredAt) / 2;
}

export function createDatabaseClock(
  options: {
    /** The host's clock, ms since the epoch (tests pass a skewed one). */
    hostNow?: () => number;
    /** Called when the skew first goes beyond CLOCK_SKEW_WARNING_MS (again after it came back within). */
    onSkewed?: (skewMs: number) => void;
  } = {},
): DatabaseClock {
  const hostNow = options.hostNow ?? Date.now;
  let offset: number | null = null;
  return {
    now: () => new Date(hostNow() + (offset ?? 0)),
    observe: (reading) => {
      const wasSkewed = offset !== null && Math.abs(offset) > CLOCK_SKEW_WARNING_MS;
      offset = offsetOf(reading);
      if (!wasSkewed && Math.abs(offset) > CLOCK_SKEW_WARNING_MS) options.onSkewed?.(offset);
    },
    skewMs: () => offset,
    hostNow,
  };
}
