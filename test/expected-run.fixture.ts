import type { RunSummary } from '@directory/ingest';
import { projectRawEvents } from '@directory/testing';

/**
 * The summary `ingest --wait` must print for these NDJSON lines, computed from the input alone;
 * `storedBefore` are the input's distinct valid events the store already held.
 */
export function expectedRunSummary(lines: ReadonlyArray<string>, storedBefore = 0): RunSummary {
  const expected = projectRawEvents(lines, 'https://unused.example');
  const blank = lines.filter((line) => line.trim() === '').length;
  return {
    lines: lines.length - blank,
    blank,
    stored: expected.uniqueEvents - storedBefore,
    alreadyStored: storedBefore,
    repeatedInInput: expected.validEvents.length - expected.uniqueEvents,
    rejected: expected.invalid,
    notStored: 0,
  };
}
