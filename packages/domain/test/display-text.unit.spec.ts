import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeControlCharacters,
  escapeJsonControlCharacters,
  singleLineText,
} from '../src/shared/display-text.js';

// Written out here, apart from the module's own pattern: C0, DEL, C1, the line and paragraph
// separators, the bidi embeddings, overrides and isolates.
const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, code) => code),
  ...Array.from({ length: 0x21 }, (_, offset) => 0x7f + offset),
  0x2028,
  0x2029,
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
].map((code) => String.fromCharCode(code));
const hasControl = (text: string) => [...text].some((character) => CONTROLS.includes(character));

// Text as crawled data could hold it: mostly ordinary characters, many controls, escapes and backslashes.
const hostileText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...CONTROLS),
    fc.constantFrom('a', 'Z', ' ', '\\', 'x', '1', 'b', '{', '}', '[', 'é', 'ß', '\u200e', '😀'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 60,
});

describe('singleLineText', () => {
  it('turns a forged line into part of the same line', () => {
    expect(singleLineText('Dr X\nWhatsApp-eligible: yes')).toBe('Dr X WhatsApp-eligible: yes');
    expect(singleLineText('a\r\nb\u2028c\u2029d\u0085e\tf')).toBe('a  b c d e f');
  });

  it('replaces every other control character visibly, and leaves ordinary text alone', () => {
    expect(singleLineText('\u001b[31mred\u001b[0m\u0000\u007f\u009b')).toBe(
      '\uFFFD[31mred\uFFFD[0m\uFFFD\uFFFD\uFFFD',
    );
    expect(singleLineText('evil\u202egnp.exe \u2066x\u2069')).toBe('evil\uFFFDgnp.exe \uFFFDx\uFFFD');
    expect(singleLineText('Clínica Dental Großmann \u200e😀 \\n')).toBe(
      'Clínica Dental Großmann \u200e😀 \\n',
    );
  });

  it('never leaves a control character, keeps the length and every other character in place', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const shown = singleLineText(text);
        expect(hasControl(shown)).toBe(false);
        expect(shown.length).toBe(text.length);
        [...text].forEach((character, index) => {
          if (!CONTROLS.includes(character)) expect([...shown][index]).toBe(character);
        });
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('escapeControlCharacters', () => {
  it('shows escape sequences and forged lines as escapes', () => {
    expect(escapeControlCharacters('\u001b[2J\u001b]0;owned\u0007 next\nline\ttab')).toBe(
      '\\x1b[2J\\x1b]0;owned\\x07 next\\x0aline\\x09tab',
    );
    expect(escapeControlCharacters('\u0000\u007f\u009b\u2028\u202e\u2069')).toBe(
      '\\x00\\x7f\\x9b\\u{2028}\\u{202e}\\u{2069}',
    );
    expect(escapeControlCharacters('Praxis Müller \\ 😀')).toBe('Praxis Müller \\ 😀');
  });

  it('never leaves a control character, and only ever adds escapes', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const shown = escapeControlCharacters(text);
        expect(hasControl(shown)).toBe(false);
        const unescaped = shown.replace(
          /\\x([0-9a-f]{2})|\\u\{([0-9a-f]{4})\}/g,
          (_, byte?: string, unit?: string) => String.fromCharCode(parseInt(byte ?? unit ?? '', 16)),
        );
        // Data that already looks like an escape is ambiguous (a display, not an encoding); otherwise exact.
        if (!/\\(?:x|u\{)/.test(text)) expect(unescaped).toBe(text);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('escapeJsonControlCharacters', () => {
  it('keeps JSON of the same value, with no control character but the layout', () => {
    fc.assert(
      fc.property(fc.dictionary(hostileText, fc.oneof(hostileText, fc.array(hostileText))), (value) => {
        const json = escapeJsonControlCharacters(JSON.stringify(value, null, 2));
        expect(JSON.parse(json)).toEqual(value);
        expect(hasControl(json.replaceAll('\n', ''))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
