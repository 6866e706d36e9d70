import { describe, expect, it } from 'vitest';
import { createLinePacer } from '../src/index.js';

describe('createLinePacer', () => {
  it('lets the first line through, then one per interval, and a forced line at any time', () => {
    let clock = 1_000;
    const due = createLinePacer(2_000, () => clock);
    const answers: boolean[] = [];
    for (const [at, force] of [
      [1_000, false], // the first call
      [1_500, false],
      [2_999, false],
      [3_000, false], // one interval after the first line
      [3_100, true], // forced (the last line)
      [4_000, false], // counted from the forced line
      [5_100, false],
    ] as const) {
      clock = at;
      answers.push(due(force));
    }
    expect(answers).toEqual([true, false, false, true, true, false, true]);
  });
});
