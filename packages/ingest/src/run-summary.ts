import type { StoredSince } from '@directory/event-store';
import type { ProduceSummary } from './producer.js';

/**
 * What became of every line of one `ingest --wait` run, each counted exactly once. Taken from the store
 * at the end (which of the input's event ids it holds, stored after or before the run began), not from
 * job results: a retried or re-enqueued batch finds its own earlier work in the store and would report
 * it as duplicates.
 */
export type RunSummary = {
  /** Non-blank lines read. */
  lines: number;
  blank: number;
  /** Valid events the store received during this run. */
  stored: number;
  /** Valid events the store held before this run began (an earlier run sent them). */
  alreadyStored: number;
  /** Lines repeating an event id seen earlier in this input. */
  repeatedInInput: number;
  /** Invalid lines, sent to dead letters. */
  rejected: number;
  /** Valid events the store does not hold although their batches were processed (should be 0). */
  notStored: number;
};

export function summarizeRun(
  produced: Pick<ProduceSummary, 'lines' | 'blank' | 'rejected' | 'duplicatesInInput'>,
  store: StoredSince,
): RunSummary {
  return {
    lines: produced.lines - produced.blank,
    blank: produced.blank,
    stored: store.storedAfter,
    alreadyStored: store.storedBefore,
    repeatedInInput: produced.duplicatesInInput,
    rejected: produced.rejected,
    notStored: store.missing,
  };
}

export function describeRun(summary: RunSummary): string {
  return (
    `${summary.lines} lines: ${summary.stored} stored, ${summary.alreadyStored} already stored before this run, ` +
    `${summary.repeatedInInput} repeated in this input, ${summary.rejected} rejected (dead letters)` +
    (summary.notStored ? `, ${summary.notStored} NOT STORED` : '') +
    (summary.blank ? ` (${summary.blank} blank lines skipped)` : '')
  );
}
