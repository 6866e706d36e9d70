import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldText } from '../src/shared/text.js';

/** The whole folding, step by step: what the ASCII shortcut must always agree with. */
function foldEveryStep(input: string): string {
  return input
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[æ]/g, 'ae')
    .replace(/[ø]/g, 'o')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('foldText', () => {
  it('folds case, accents, ligatures and spaces', () => {
    expect(foldText('  Clínica   Dental  Großmann ÆØ ')).toBe('clinica dental grossmann aeo');
    expect(foldText('Dr.  Smith\t& Sons')).toBe('dr. smith & sons');
  });

  it('gives the same text as every folding step, for plain ASCII and for any other text', () => {
    const asciiWithSpaces = fc.string({
      unit: fc.constantFrom(...' \t\nAaBbZz09.-&é'.split('')),
      maxLength: 40,
    });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), asciiWithSpaces), (input) => {
        expect(foldText(input)).toBe(foldEveryStep(input));
      }),
      { numRuns: 2_000 },
    );
  });
});
