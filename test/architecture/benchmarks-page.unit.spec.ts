import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/benchmarks.md is a reference: the goals, the latest figures and how to run each benchmark. A new
 * sitting replaces the figures; the runs before it stay in the file's git history, not on the page.
 */

const MAX_LINES = 250;

/** Lines of a text, a final newline not counted as the start of another line. */
function lineCount(text: string): number {
  return text.replace(/\n$/, '').split('\n').length;
}

describe('docs/benchmarks.md', () => {
  const page = readFileSync(new URL('../../docs/benchmarks.md', import.meta.url), 'utf8');

  it(`stays under ${MAX_LINES} lines`, () => {
    expect(
      lineCount(page),
      'docs/benchmarks.md is a reference: replace superseded figures instead of adding sittings; ' +
        'their history lives in git (git log -p docs/benchmarks.md)',
    ).toBeLessThan(MAX_LINES);
  });

  it('counts lines as an editor shows them', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
  });
});
