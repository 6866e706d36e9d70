import { describe, expect, it } from 'vitest';
import { describeRun, summarizeRun } from '../src/run-summary.js';

describe('summarizeRun', () => {
  it('counts every non-blank line once: stored, already stored, repeated, rejected, blank apart', () => {
    const run = summarizeRun(
      { lines: 12, blank: 2, rejected: 1, duplicatesInInput: 2 },
      { storedAfter: 4, storedBefore: 3, missing: 0 },
    );
    expect(run).toEqual({
      lines: 10,
      blank: 2,
      stored: 4,
      alreadyStored: 3,
      repeatedInInput: 2,
      rejected: 1,
      notStored: 0,
    });
    expect(describeRun(run)).toBe(
      '10 lines: 4 stored, 3 already stored before this run, 2 repeated in this input, ' +
        '1 rejected (dead letters) (2 blank lines skipped)',
    );
  });

  it('names events missing from the store', () => {
    const run = summarizeRun(
      { lines: 5, blank: 0, rejected: 0, duplicatesInInput: 0 },
      { storedAfter: 3, storedBefore: 0, missing: 2 },
    );
    expect(describeRun(run)).toContain('2 NOT STORED');
  });
});
