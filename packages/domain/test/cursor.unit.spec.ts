import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES } from '../src/events/events.js';
import { CURSOR_REASONS, decodeCursor, encodeCursor, filterFingerprint } from '../src/search/cursor.js';
import { sortNameOf } from '../src/search/search-document.js';
import type { SearchFilters } from '../src/search/search-filters.js';
import { CURSOR_MAX_LENGTH, SORT_NAME_MAX_CODE_POINTS } from '../src/requests/page-bounds.js';
import { parseSearchParams } from '../src/search/search-params.js';

const SECRET = 'test-cursor-secret-0123456789abcdef';
const FILTERS: SearchFilters = { country: 'de', city: 'berlin', q: 'Zahnarzt', whatsapp: true };

const filtersArbitrary: fc.Arbitrary<SearchFilters> = fc.record(
  {
    country: fc.constantFrom(...COUNTRY_CODES),
    city: fc.stringMatching(/^[a-z0-9]{1,10}(?:-[a-z0-9]{1,10}){0,2}$/),
    q: fc.string({ unit: 'grapheme', maxLength: 100 }),
    whatsapp: fc.boolean(),
    verified: fc.boolean(),
  },
  { requiredKeys: ['country'] },
);
const afterArbitrary = fc.tuple(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ maxLength: 128 }));

describe('cursor codec', () => {
  it('round-trips the sort values for any strings and filters', () => {
    fc.assert(
      fc.property(afterArbitrary, filtersArbitrary, (after, filters) => {
        const token = encodeCursor({ after, filters }, SECRET);
        expect(decodeCursor(token, filters, SECRET)).toEqual({ ok: true, value: after });
      }),
    );
  });

  it('is opaque base64url text with a signature', () => {
    const token = encodeCursor({ after: ['müller', 'place-1'], filters: FILTERS }, SECRET);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain('müller');
  });

  it('stays well under 2048 characters for realistic values', () => {
    // A long non-Latin name (3 UTF-8 bytes per character) and the longest place id.
    const token = encodeCursor(
      { after: ['医'.repeat(300), 'p'.repeat(128)], filters: { ...FILTERS, q: 'q'.repeat(100) } },
      SECRET,
    );
    expect(token.length).toBeLessThan(1800);
  });

  describe('length bound: a cursor the API issues is always accepted back', () => {
    // What the API issues: the sort key the projection indexed for the page's last record, its id.
    const issue = (name: string, placeId: string, filters: SearchFilters) =>
      encodeCursor({ after: [sortNameOf(name), placeId], filters }, SECRET);
    const accepted = (token: string, filters: SearchFilters) =>
      parseSearchParams({ country: filters.country, cursor: token }).ok &&
      decodeCursor(token, filters, SECRET).ok;
    const longestId = 'p'.repeat(128);

    it.each([
      // Escaped as \uXXXX in JSON: 6 bytes for one code point, the worst case.
      ['control characters', '\u0001'.repeat(1_000)],
      ['lone surrogates', '\ud800'.repeat(1_000)],
      ['4-byte code points', '\u{1F600}'.repeat(1_000)],
      ['CJK (690 gave 2,922 characters before the bound)', '医'.repeat(1_000)],
      ['quotes and backslashes', '"\\'.repeat(500)],
      ['a 1,500-character Latin name (gave 2,162 characters before the bound)', 'a'.repeat(1_500)],
      ['a 40,000-character name', 'x'.repeat(40_000)],
    ])('%s, with the longest place id', (_name, name) => {
      const token = issue(name, longestId, FILTERS);
      expect(token.length).toBeLessThanOrEqual(CURSOR_MAX_LENGTH);
      expect(accepted(token, FILTERS)).toBe(true);
    });

    it('holds for any name, place id and filters', () => {
      const placeId = fc.stringMatching(/^[A-Za-z0-9_-]{1,128}$/);
      fc.assert(
        fc.property(
          fc.string({ unit: 'binary', maxLength: 1_500, size: 'max' }),
          placeId,
          filtersArbitrary,
          (name, id, filters) => {
            const token = issue(name, id, filters);
            expect(token.length).toBeLessThanOrEqual(CURSOR_MAX_LENGTH);
            expect(accepted(token, filters)).toBe(true);
          },
        ),
        { numRuns: 300 },
      );
    });

    it('has room to spare at the bound: 6-byte code points all the way and the longest id', () => {
      const worst = encodeCursor(
        { after: ['\u0001'.repeat(SORT_NAME_MAX_CODE_POINTS), longestId], filters: FILTERS },
        SECRET,
      );
      expect(worst.length).toBe(1_907);
    });
  });

  it('rejects a token with any single character changed', () => {
    const token = encodeCursor({ after: ['dr. anna schmidt', 'ChIJ-abc_123'], filters: FILTERS }, SECRET);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ';
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom(...alphabet), (index, replacement) => {
        fc.pre(token[index] !== replacement);
        const tampered = token.slice(0, index) + replacement + token.slice(index + 1);
        const result = decodeCursor(tampered, FILTERS, SECRET);
        expect(result.ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-character change of the signature as a bad signature', () => {
    const token = encodeCursor({ after: ['a', 'b'], filters: FILTERS }, SECRET);
    const dot = token.indexOf('.');
    for (let index = dot + 1; index < token.length; index += 1) {
      // Includes the last character, whose low bits base64 decoding would ignore.
      const replacement = token[index] === 'A' ? 'B' : 'A';
      const tampered = token.slice(0, index) + replacement + token.slice(index + 1);
      expect(decodeCursor(tampered, FILTERS, SECRET)).toEqual({
        ok: false,
        error: CURSOR_REASONS.badSignature,
      });
    }
  });

  it('rejects a cursor issued with another secret', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (otherSecret) => {
        fc.pre(otherSecret !== SECRET);
        const token = encodeCursor({ after: ['a', 'b'], filters: FILTERS }, otherSecret);
        expect(decodeCursor(token, FILTERS, SECRET)).toEqual({
          ok: false,
          error: CURSOR_REASONS.badSignature,
        });
      }),
    );
  });

  it('rejects a cursor sent with different filters', () => {
    fc.assert(
      fc.property(filtersArbitrary, filtersArbitrary, (issuedFor, sentWith) => {
        fc.pre(filterFingerprint(issuedFor) !== filterFingerprint(sentWith));
        const token = encodeCursor({ after: ['a', 'b'], filters: issuedFor }, SECRET);
        expect(decodeCursor(token, sentWith, SECRET)).toEqual({
          ok: false,
          error: CURSOR_REASONS.differentFilters,
        });
      }),
    );
    const token = encodeCursor({ after: ['a', 'b'], filters: FILTERS }, SECRET);
    for (const changed of [
      { ...FILTERS, country: 'es' },
      { ...FILTERS, city: undefined },
      { ...FILTERS, city: 'munich' },
      { ...FILTERS, q: 'Zahn' },
      { ...FILTERS, q: undefined },
      { ...FILTERS, whatsapp: false },
      { ...FILTERS, whatsapp: undefined },
      { ...FILTERS, verified: true },
    ] satisfies SearchFilters[]) {
      expect(decodeCursor(token, changed, SECRET)).toEqual({
        ok: false,
        error: CURSOR_REASONS.differentFilters,
      });
    }
  });

  it('binds filters regardless of key order and of q casing, accents and spacing', () => {
    const token = encodeCursor({ after: ['a', 'b'], filters: FILTERS }, SECRET);
    const reordered: SearchFilters = { whatsapp: true, q: 'Zahnarzt', city: 'berlin', country: 'de' };
    expect(decodeCursor(token, reordered, SECRET).ok).toBe(true);
    expect(decodeCursor(token, { ...reordered, q: '  ZÄHNARZT ' }, SECRET).ok).toBe(true);
    expect(decodeCursor(token, { ...reordered, q: 'Zahnarzt', verified: undefined }, SECRET).ok).toBe(true);
    fc.assert(
      fc.property(filtersArbitrary, (filters) => {
        const shuffled = Object.fromEntries(Object.entries(filters).reverse()) as SearchFilters;
        expect(filterFingerprint(shuffled)).toBe(filterFingerprint(filters));
      }),
    );
  });

  it.each([
    ['', CURSOR_REASONS.malformed],
    ['abc', CURSOR_REASONS.malformed],
    ['a.b.c', CURSOR_REASONS.malformed],
    ['.abc', CURSOR_REASONS.malformed],
    ['abc.', CURSOR_REASONS.malformed],
    ['ab+c.def', CURSOR_REASONS.malformed],
    ['abc.d=f', CURSOR_REASONS.malformed],
    ['abc.def', CURSOR_REASONS.badSignature],
  ])('rejects %j: %s', (token, reason) => {
    expect(decodeCursor(token, FILTERS, SECRET)).toEqual({ ok: false, error: reason });
  });

  it('checks the decoded payload after the signature', () => {
    // Signed with the real secret, as only a deployment holding it could (e.g. a future version).
    const forge = (json: string) => signBody(Buffer.from(json, 'utf8').toString('base64url'));
    expect(decodeCursor(forge('not json'), FILTERS, SECRET)).toEqual({
      ok: false,
      error: CURSOR_REASONS.malformed,
    });
    expect(decodeCursor(forge('[1,2]'), FILTERS, SECRET)).toEqual({
      ok: false,
      error: CURSOR_REASONS.malformed,
    });
    const fingerprint = filterFingerprint(FILTERS);
    expect(
      decodeCursor(forge(JSON.stringify({ v: 2, a: ['a', 'b'], f: fingerprint })), FILTERS, SECRET),
    ).toEqual({
      ok: false,
      error: CURSOR_REASONS.unsupportedVersion,
    });
    expect(decodeCursor(forge(JSON.stringify({ v: 1, a: ['a'], f: fingerprint })), FILTERS, SECRET)).toEqual({
      ok: false,
      error: CURSOR_REASONS.malformed,
    });
    expect(
      decodeCursor(forge(JSON.stringify({ v: 1, a: ['a', 2], f: fingerprint })), FILTERS, SECRET),
    ).toEqual({
      ok: false,
      error: CURSOR_REASONS.malformed,
    });
    expect(
      decodeCursor(forge(JSON.stringify({ v: 1, a: ['a', 'b'], f: fingerprint })), FILTERS, SECRET),
    ).toEqual({
      ok: true,
      value: ['a', 'b'],
    });
  });

  it('refuses an empty secret', () => {
    expect(() => encodeCursor({ after: ['a', 'b'], filters: FILTERS }, '')).toThrow(/secret/);
    expect(() => decodeCursor('a.b', FILTERS, '')).toThrow(/secret/);
  });
});

// Signs an arbitrary body the way the codec does (the MAC context is part of the format).
function signBody(body: string): string {
  return `${body}.${createHmac('sha256', SECRET).update(`doctor-cursor.${body}`, 'utf8').digest('base64url')}`;
}
