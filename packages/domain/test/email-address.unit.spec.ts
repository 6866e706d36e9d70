import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_EMAIL_LENGTH, isAccountEmail, isPublicEmail } from '../src/places/email-address.js';
import { fastestOfThreeMs } from '@directory/testing';

// The characters the two grammars care about, and some they refuse (whitespace of several kinds,
// non-ASCII letters).
const emailChar = fc.constantFrom('a', 'Z', '0', '.', '@', '-', '_', "'", '+', ' ', '\t', '\u00a0', 'é', '!');
const shortText = fc.string({ unit: emailChar, maxLength: 24 });

/** An address of exactly `length` characters that both grammars accept. */
const addressOfLength = (length: number) => `${'a'.repeat(length - 'a@example.com'.length + 1)}@example.com`;

describe('isAccountEmail: name@host.tld, as the console has always accepted', () => {
  // The rule written with string operations instead of a pattern.
  function reference(value: string): boolean {
    if (value.length > MAX_EMAIL_LENGTH || /\s/.test(value)) return false;
    const parts = value.split('@');
    if (parts.length !== 2) return false;
    const [local = '', domain = ''] = parts;
    // A dot inside the domain: neither its first nor its last character.
    return local !== '' && domain.slice(1, -1).includes('.');
  }

  it('accepts ordinary addresses and refuses what is not one', () => {
    for (const valid of ['ada@example.com', 'Ada.Lovelace+keys@mail.example.co.uk', 'x@a.b', 'ü@bücher.de']) {
      expect(isAccountEmail(valid), valid).toBe(true);
    }
    for (const invalid of ['', 'ada', 'ada@', '@example.com', 'ada@localhost', 'ada@example.', 'ada@.com']) {
      expect(isAccountEmail(invalid), invalid).toBe(false);
    }
    for (const invalid of ['a b@example.com', 'ada@exa mple.com', ' ada@example.com', 'a@b@example.com']) {
      expect(isAccountEmail(invalid), invalid).toBe(false);
    }
  });

  it('agrees with the rule written with string operations, on any short text', () => {
    fc.assert(
      fc.property(shortText, (value) => {
        expect(isAccountEmail(value)).toBe(reference(value));
      }),
      { numRuns: 5_000 },
    );
  });

  it(`refuses anything longer than ${MAX_EMAIL_LENGTH} characters`, () => {
    expect(isAccountEmail(addressOfLength(MAX_EMAIL_LENGTH))).toBe(true);
    expect(isAccountEmail(addressOfLength(MAX_EMAIL_LENGTH + 1))).toBe(false);
  });
});

describe('isPublicEmail: the grammar the published record has always used', () => {
  it('accepts ordinary practice addresses and refuses sloppy ones', () => {
    for (const valid of ['info@praxis.de', "o'brien.clinic+1@mail.example.ie", 'a-b_c@sub-1.example.pt']) {
      expect(isPublicEmail(valid), valid).toBe(true);
    }
    for (const invalid of ['info at praxis.de', 'info@localhost', '.info@praxis.de', 'in..fo@praxis.de']) {
      expect(isPublicEmail(invalid), invalid).toBe(false);
    }
    for (const invalid of ['info.@praxis.de', 'info@praxis.d', 'info@praxis.d3', 'ü@praxis.de', '']) {
      expect(isPublicEmail(invalid), invalid).toBe(false);
    }
  });

  it("agrees with zod's email pattern (which it replaces) on any text within the length bound", () => {
    const dotted = fc
      .array(fc.string({ unit: emailChar, minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 })
      .map((words) => words.join('.'));
    const address = fc.tuple(dotted, dotted).map(([local, domain]) => `${local}@${domain}`);
    fc.assert(
      fc.property(fc.oneof(shortText, address), (value) => {
        expect(isPublicEmail(value)).toBe(z.regexes.email.test(value));
      }),
      { numRuns: 5_000 },
    );
  });

  it(`refuses anything longer than ${MAX_EMAIL_LENGTH} characters`, () => {
    expect(isPublicEmail(addressOfLength(MAX_EMAIL_LENGTH))).toBe(true);
    expect(isPublicEmail(addressOfLength(MAX_EMAIL_LENGTH + 1))).toBe(false);
  });
});

describe('email checks on hostile input', () => {
  it('answer in well under 50 ms for 100,000 characters built to make a backtracking pattern stall', () => {
    const hostile = [
      `a@${'.'.repeat(100_000)}@`,
      `a@${'a.'.repeat(50_000)}1`,
      `${'a'.repeat(100_000)}!`,
      `${'a.'.repeat(50_000)}@`,
    ];
    for (const value of hostile) {
      const milliseconds = fastestOfThreeMs(() => {
        expect(isAccountEmail(value)).toBe(false);
        expect(isPublicEmail(value)).toBe(false);
      });
      expect(milliseconds, value.slice(0, 8)).toBeLessThan(50);
    }
  });
});
