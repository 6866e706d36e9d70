// What the event store costs PostgreSQL as it grows, per tenth of a long ingest: from cumulative counters
// read at each sample (pg_stat_wal, pg_stat_bgwriter, pg_statio_user_tables, pg_stat_user_tables), the
// difference across each tenth divided by the events it stored.

/** Cumulative counters at one moment of the run. */
export type StoreSample = {
  seconds: number;
  /** Events stored so far (the store's highest position). */
  stored: number;
  walBytes: number;
  /** Full-page images written to the WAL. */
  walFpi: number;
  checkpoints: number;
  /** Dirty buffers backends had to write out themselves to make room (pg_stat_bgwriter.buffers_backend). */
  backendWrites: number;
  /** Blocks of the events and places tables and their indexes read from outside shared_buffers… */
  blocksRead: number;
  /** …and found in them. */
  blocksHit: number;
  autovacuums: number;
};

export type DecileFigures = {
  /** 1 to 10: the tenth of the events stored at the end. */
  decile: number;
  /** Events stored at the end of this tenth (its last sample). */
  stored: number;
  eventsPerSecond: number;
  walBytesPerEvent: number;
  fpiPerEvent: number;
  checkpoints: number;
  backendWritesPerEvent: number;
  /** Blocks read from outside shared_buffers per event, and the share of touches they were. */
  readsPerEvent: number;
  readShare: number;
  autovacuums: number;
};

/**
 * Figures per tenth of `finalStored`: each tenth ends at the first sample that had stored it whole and
 * starts where the tenth before ended (or at `baseline`, taken before the first event), so samples taken
 * after the last event was stored (the run waiting for its jobs to finish) count in none. Tenths a
 * single sample completed together (a very short run) are one, the highest.
 */
export function storeFiguresByDecile(
  baseline: StoreSample,
  samples: ReadonlyArray<StoreSample>,
  finalStored: number,
): DecileFigures[] {
  const ordered = [...samples].sort((a, b) => a.seconds - b.seconds);
  const endOfDecile = Array.from({ length: 10 }, (_, index) =>
    ordered.find((sample) => sample.stored * 10 >= (index + 1) * finalStored),
  );
  const figures: DecileFigures[] = [];
  let previous = baseline;
  endOfDecile.forEach((end, index) => {
    // A sample that completed several tenths at once ends the highest of them.
    if (!end || end === previous || endOfDecile[index + 1] === end) return;
    const events = end.stored - previous.stored;
    const seconds = end.seconds - previous.seconds;
    const touches = end.blocksRead - previous.blocksRead + (end.blocksHit - previous.blocksHit);
    const perEvent = (value: number) => (events > 0 ? value / events : 0);
    figures.push({
      decile: index + 1,
      stored: end.stored,
      eventsPerSecond: seconds > 0 ? events / seconds : 0,
      walBytesPerEvent: perEvent(end.walBytes - previous.walBytes),
      fpiPerEvent: perEvent(end.walFpi - previous.walFpi),
      checkpoints: end.checkpoints - previous.checkpoints,
      backendWritesPerEvent: perEvent(end.backendWrites - previous.backendWrites),
      readsPerEvent: perEvent(end.blocksRead - previous.blocksRead),
      readShare: touches > 0 ? (end.blocksRead - previous.blocksRead) / touches : 0,
      autovacuums: end.autovacuums - previous.autovacuums,
    });
    previous = end;
  });
  return figures;
}

/** The figures as a table, one line per tenth. */
export function formatStoreFigures(figures: ReadonlyArray<DecileFigures>): string[] {
  const header =
    '  tenth    stored  events/s  WAL B/event  FPI/event  checkpoints  backend writes/event  reads/event  read share  autovacuums';
  return [
    header,
    ...figures.map(
      (figure) =>
        `  ${String(figure.decile).padStart(5)}` +
        `${String(figure.stored).padStart(10)}` +
        `${figure.eventsPerSecond.toFixed(0).padStart(10)}` +
        `${figure.walBytesPerEvent.toFixed(0).padStart(13)}` +
        `${figure.fpiPerEvent.toFixed(3).padStart(11)}` +
        `${String(figure.checkpoints).padStart(13)}` +
        `${figure.backendWritesPerEvent.toFixed(3).padStart(22)}` +
        `${figure.readsPerEvent.toFixed(3).padStart(13)}` +
        `${(figure.readShare * 100).toFixed(2).padStart(11)}%` +
        `${String(figure.autovacuums).padStart(12)}`,
    ),
  ];
}
