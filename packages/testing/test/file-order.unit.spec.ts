import { describe, expect, it } from 'vitest';
import { fileDurations, orderLongestFirst } from '../src/file-order.js';

const file = (path: string, size = 100) => ({ path, size });

describe('the order test files start in', () => {
  it('starts files no run has timed first, largest first, then the timed ones, longest first', () => {
    const files = [
      file('a.spec.ts', 10),
      file('b.spec.ts', 900),
      file('new-small.spec.ts', 5),
      file('new-large.spec.ts', 50),
    ];
    const ordered = orderLongestFirst(files, { 'a.spec.ts': 50.5, 'b.spec.ts': 0.3 });
    expect(ordered.map((entry) => entry.path)).toEqual([
      'new-large.spec.ts',
      'new-small.spec.ts',
      'a.spec.ts',
      'b.spec.ts',
    ]);
  });

  it('breaks ties by path, so the order is the same whatever order the files came in', () => {
    const files = [file('c.spec.ts'), file('a.spec.ts'), file('b.spec.ts')];
    const durations = { 'a.spec.ts': 2, 'b.spec.ts': 2, 'c.spec.ts': 2 };
    expect(orderLongestFirst(files, durations).map((entry) => entry.path)).toEqual([
      'a.spec.ts',
      'b.spec.ts',
      'c.spec.ts',
    ]);
    expect(orderLongestFirst([...files].reverse(), durations)).toEqual(orderLongestFirst(files, durations));
  });

  it('treats a time that is not a finite number as no time', () => {
    const ordered = orderLongestFirst([file('timed.spec.ts'), file('broken.spec.ts', 1)], {
      'timed.spec.ts': 9,
      'broken.spec.ts': Number.NaN,
    });
    expect(ordered.map((entry) => entry.path)).toEqual(['broken.spec.ts', 'timed.spec.ts']);
  });

  it('keeps each file in seconds to a tenth, in path order', () => {
    const durations = fileDurations([
      { path: 'test/b.int.spec.ts', milliseconds: 50_449 },
      { path: 'packages/x/test/a.unit.spec.ts', milliseconds: 120 },
    ]);
    expect(durations).toEqual({ 'packages/x/test/a.unit.spec.ts': 0.1, 'test/b.int.spec.ts': 50.4 });
    expect(Object.keys(durations)).toEqual(['packages/x/test/a.unit.spec.ts', 'test/b.int.spec.ts']);
  });
});
