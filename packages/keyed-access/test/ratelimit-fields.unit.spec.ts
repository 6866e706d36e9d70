import fc from 'fast-check';
import { parseList, Token } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { KEY_POLICY_NAME, rateLimitField, rateLimitPolicyField } from '../src/ratelimit-fields.js';

// Parsed with an independent RFC 8941 parser (structured-headers), as a client of the draft would.
describe('RateLimit and RateLimit-Policy structured fields', () => {
  it('writes the policy as the draft shows it: a List of one named item with q and w', () => {
    const field = rateLimitPolicyField(KEY_POLICY_NAME, 120, 60);
    expect(field).toBe('"key";q=120;w=60');
    const [item, ...rest] = parseList(field);
    expect(rest).toEqual([]);
    expect(item?.[0]).toBe('key');
    expect(item?.[0]).not.toBeInstanceOf(Token);
    expect(Object.fromEntries(item?.[1] ?? [])).toEqual({ q: 120, w: 60 });
  });

  it("writes the key's state with r and t", () => {
    const field = rateLimitField(KEY_POLICY_NAME, 0, 17);
    expect(field).toBe('"key";r=0;t=17');
    const [item] = parseList(field);
    expect(item?.[0]).toBe('key');
    expect(Object.fromEntries(item?.[1] ?? [])).toEqual({ r: 0, t: 17 });
  });

  it('parses back to what it was given, for any name and numbers in range', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) }),
        fc.nat({ max: 999_999_999_999_999 }),
        fc.nat({ max: 999_999_999_999_999 }),
        (name, a, b) => {
          for (const [field, keys] of [
            [rateLimitPolicyField(name, a, b), ['q', 'w']],
            [rateLimitField(name, a, b), ['r', 't']],
          ] as const) {
            const [item] = parseList(field);
            expect(item?.[0]).toBe(name);
            expect(Object.fromEntries(item?.[1] ?? [])).toEqual({ [keys[0]]: a, [keys[1]]: b });
          }
        },
      ),
    );
  });

  it('refuses what no structured field can carry', () => {
    expect(() => rateLimitField('key', -1, 0)).toThrow(RangeError);
    expect(() => rateLimitField('key', 1.5, 0)).toThrow(RangeError);
    expect(() => rateLimitPolicyField('key', 1e15, 60)).toThrow(RangeError);
    expect(() => rateLimitPolicyField('kéy', 1, 60)).toThrow(RangeError);
  });
});
