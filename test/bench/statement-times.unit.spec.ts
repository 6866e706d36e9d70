import { describe, expect, it } from 'vitest';
import { formatStatementTime, oneLine } from '../../bench/statement-times.js';

describe("a phase's statements as the scale bench prints them", () => {
  it('puts a statement on one line, its runs of white space as one space, and cuts a long one', () => {
    expect(oneLine('\n    select v.place_id\n\tfrom unnest($1::text[])  as v(place_id)\n')).toBe(
      'select v.place_id from unnest($1::text[]) as v(place_id)',
    );
    const long = oneLine(`select ${'a, '.repeat(100)}b from places`);
    expect(long).toHaveLength(110);
    expect(long.endsWith('…')).toBe(true);
  });

  it('gives the seconds, the calls and the gigabytes hit and read (decimal, as the reads line) before the text', () => {
    const line = formatStatementTime({
      query: 'select 1',
      calls: 2000,
      totalMs: 123_456,
      sharedBlocksHit: 250_000,
      sharedBlocksRead: 125_000,
    });
    expect(line).toBe('123.5 s, 2000 calls, 2.0 GB hit / 1.0 GB read: select 1');
  });
});
