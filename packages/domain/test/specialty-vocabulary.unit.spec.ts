import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAGE_LANGUAGE_CODES } from '../src/places/profile-url.js';
import {
  SPECIALTY_CODES,
  SPECIALTY_VOCABULARY,
  isSpecialtyCode,
  labelKey,
  specialtyCodeOf,
  specialtyCodesOf,
  specialtyLabel,
  type SpecialtyEntry,
} from '../src/places/specialty-vocabulary.js';

const ENTRIES: ReadonlyArray<SpecialtyEntry> = SPECIALTY_VOCABULARY;

/** Every label and synonym of the vocabulary with the code it belongs to. */
const TERMS = ENTRIES.flatMap((entry) => [
  ...Object.values(entry.labels).map((label) => ({ code: entry.code, label })),
  ...Object.values(entry.synonyms).flatMap((synonyms) =>
    (synonyms ?? []).map((label) => ({ code: entry.code, label })),
  ),
]);

describe('the specialty vocabulary is consistent', () => {
  it('has unique lowercase kebab codes, listed in code order', () => {
    const codes = ENTRIES.map((entry) => entry.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z]+(?:-[a-z]+)*$/);
    expect(SPECIALTY_CODES).toEqual([...codes].sort());
    expect(codes.length).toBeGreaterThanOrEqual(25);
  });

  it('labels every code in every page language, and nothing else', () => {
    for (const entry of ENTRIES) {
      expect(Object.keys(entry.labels).sort(), entry.code).toEqual([...PAGE_LANGUAGE_CODES].sort());
      for (const lang of PAGE_LANGUAGE_CODES) {
        expect(entry.labels[lang].trim(), `${entry.code} ${lang}`).not.toBe('');
        expect(specialtyLabel(entry.code, lang)).toBe(entry.labels[lang]);
      }
      for (const lang of Object.keys(entry.synonyms)) expect(PAGE_LANGUAGE_CODES).toContain(lang);
    }
  });

  it('never lets one label key mean two codes', () => {
    const codesByKey = new Map<string, Set<string>>();
    for (const { code, label } of TERMS) {
      const key = labelKey(label);
      expect(key, label).not.toBe('');
      codesByKey.set(key, (codesByKey.get(key) ?? new Set()).add(code));
    }
    const clashes = [...codesByKey].filter(([, codes]) => codes.size > 1).map(([key]) => key);
    expect(clashes).toEqual([]);
  });

  it('maps every label and synonym to its own code', () => {
    for (const { code, label } of TERMS) expect(specialtyCodeOf(label), label).toBe(code);
  });

  it('knows its codes', () => {
    for (const code of SPECIALTY_CODES) expect(isSpecialtyCode(code)).toBe(true);
    for (const other of ['', 'Dentistry', 'dentist', 'general practice', 'toString', '__proto__']) {
      expect(isSpecialtyCode(other), other).toBe(false);
      expect(specialtyLabel(other, 'en')).toBeUndefined();
    }
  });
});

describe('specialtyCodeOf', () => {
  it('maps a label outside the vocabulary to no code, never to a guess', () => {
    for (const label of [
      '',
      '   ',
      'Arztpraxis',
      'Ärztlicher Notdienst',
      'Zahn',
      'Pediatr',
      'Dermatologie und Allergologie',
      'Kinderarzt Berlin',
      '🦷',
    ]) {
      expect(specialtyCodeOf(label), label).toBeNull();
    }
  });

  it('ignores case, accents, spacing and punctuation', () => {
    expect(specialtyCodeOf('  ORTHOPÄDE ')).toBe('orthopedics');
    expect(specialtyCodeOf('orthopade')).toBe('orthopedics');
    expect(specialtyCodeOf('hno arzt')).toBe('otorhinolaryngology');
    expect(specialtyCodeOf('Women’s health')).toBe('gynecology');
    expect(specialtyCodeOf('Chirurgien dentiste')).toBe('dentistry');
    expect(specialtyCodeOf('Medicina\u00a0general')).toBe('general-practice');
    expect(specialtyCodeOf('Pe\u0301diatre')).toBe('pediatrics');
  });

  it('gives the same code whatever the case, accents and spacing of a known term (property)', () => {
    const spellings = fc.constantFrom(...TERMS).chain(({ code, label }) =>
      fc
        .record({
          cases: fc.array(fc.boolean(), { minLength: label.length, maxLength: label.length }),
          decompose: fc.boolean(),
          spaces: fc.constantFrom(' ', '  ', '\t', '\u00a0', ' - '),
          pad: fc.constantFrom('', ' ', '\n '),
        })
        .map(({ cases, decompose, spaces, pad }) => {
          const cased = [...label]
            .map((char, index) => (cases[index] ? char.toUpperCase() : char.toLowerCase()))
            .join('');
          const spaced = cased.split(' ').join(spaces);
          return { code, spelling: pad + (decompose ? spaced.normalize('NFD') : spaced) + pad };
        }),
    );
    fc.assert(
      fc.property(spellings, ({ code, spelling }) => {
        expect(specialtyCodeOf(spelling)).toBe(code);
      }),
    );
  });
});

describe('specialtyCodesOf', () => {
  it('lists the primary type’s code first, then the specialties’ in order, each once', () => {
    expect(
      specialtyCodesOf({
        primaryType: 'Zahnarzt',
        specialties: ['Implantologie', 'Arztpraxis', 'Zahnmedizin', 'Kieferorthopädie', 'implantologie'],
      }),
    ).toEqual(['dentistry', 'dental-implants', 'orthodontics']);
    expect(specialtyCodesOf({ primaryType: null, specialties: ['Pédiatrie', 'Pédiatre'] })).toEqual([
      'pediatrics',
    ]);
    expect(specialtyCodesOf({ primaryType: 'Arztpraxis', specialties: [] })).toEqual([]);
  });

  it('returns unique vocabulary codes, the same for the same record (property)', () => {
    const label = fc.oneof(fc.constantFrom(...TERMS.map((term) => term.label)), fc.string({ maxLength: 20 }));
    fc.assert(
      fc.property(fc.option(label, { nil: null }), fc.array(label, { maxLength: 8 }), (primary, others) => {
        const codes = specialtyCodesOf({ primaryType: primary, specialties: others });
        expect(new Set(codes).size).toBe(codes.length);
        for (const code of codes) expect(SPECIALTY_CODES).toContain(code);
        expect(specialtyCodesOf({ primaryType: primary, specialties: [...others] })).toEqual(codes);
        const primaryCode = primary === null ? null : specialtyCodeOf(primary);
        if (primaryCode !== null) expect(codes[0]).toBe(primaryCode);
      }),
    );
  });
});

describe('the vocabulary table in docs/api.md', () => {
  // The docs show every code with its six labels; this keeps that copy equal to the vocabulary.
  it('lists every code once, in code order, with exactly the labels the vocabulary has', () => {
    const docs = readFileSync(fileURLToPath(new URL('../../../docs/api.md', import.meta.url)), 'utf8');
    const start = docs.indexOf('The vocabulary (authoritative');
    expect(start).toBeGreaterThan(-1);
    const table = docs.slice(start).split('\n\n')[1] ?? '';
    const rows = [...table.matchAll(/^\| `([a-z-]+)` +\|(.+)\|$/gm)].map(([, code = '', cells = '']) => [
      code,
      ...cells.split('|').map((cell) => cell.trim()),
    ]);
    const expected = [...SPECIALTY_VOCABULARY]
      .sort((a, b) => (a.code < b.code ? -1 : 1))
      .map((entry) => [entry.code, ...PAGE_LANGUAGE_CODES.map((lang) => entry.labels[lang])]);
    expect(rows).toEqual(expected);
  });
});
