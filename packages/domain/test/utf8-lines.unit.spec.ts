import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Lines } from '../src/shared/utf8-lines.js';

const lineText = fc.string({ unit: 'grapheme', maxLength: 30 }).map((text) => text.replace(/\n/g, ' '));

describe('utf8Lines', () => {
  it('separates lines, or ends each one, with a newline', () => {
    expect(utf8Lines(['{"a":1}', '"ñ😀"'], { finalNewline: false }).toString()).toBe('{"a":1}\n"ñ😀"');
    expect(utf8Lines(['{"a":1}', '"ñ😀"'], { finalNewline: true }).toString()).toBe('{"a":1}\n"ñ😀"\n');
    expect(utf8Lines([], { finalNewline: false })).toHaveLength(0);
    expect(utf8Lines([], { finalNewline: true })).toHaveLength(0);
    expect(utf8Lines([''], { finalNewline: true }).toString()).toBe('\n');
  });

  it('holds exactly the bytes of the joined text, for any text', () => {
    fc.assert(
      fc.property(fc.array(lineText, { maxLength: 20 }), fc.boolean(), (texts, finalNewline) => {
        const joined = texts.join('\n') + (finalNewline && texts.length > 0 ? '\n' : '');
        expect(utf8Lines(texts, { finalNewline }).equals(Buffer.from(joined))).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });
});
