import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  API_KEY_LENGTH,
  API_KEY_MODES,
  API_KEY_PATTERN,
  API_KEY_PREFIXES,
  API_KEY_PREFIX_SOURCE,
  API_KEY_RANDOM_BYTES,
  apiKeyModeOf,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from '../src/keys/api-key.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const bytesArbitrary = fc.uint8Array({ minLength: API_KEY_RANDOM_BYTES, maxLength: API_KEY_RANDOM_BYTES });

describe('generateApiKey', () => {
  it('produces well-formed, fixed-length keys with a display prefix and a SHA-256 hash', () => {
    fc.assert(
      fc.property(bytesArbitrary, (bytes) => {
        const key = generateApiKey(bytes);
        expect(key.secret).toMatch(/^dk_live_[0-9A-Za-z]{49}$/);
        expect(key.secret).toHaveLength(API_KEY_LENGTH);
        expect(isWellFormedApiKey(key.secret)).toBe(true);
        expect(key.prefix).toBe(key.secret.slice(0, 12));
        expect(key.prefix.startsWith('dk_live_')).toBe(true);
        expect(key.hash).toBe(createHash('sha256').update(key.secret).digest('hex'));
        expect(API_KEY_PATTERN.test(`token=${key.secret};`)).toBe(true);
      }),
    );
  });

  it('encodes every random byte: different bytes give different secrets', () => {
    fc.assert(
      fc.property(bytesArbitrary, bytesArbitrary, (a, b) => {
        fc.pre(Buffer.compare(a, b) !== 0);
        expect(generateApiKey(a).secret).not.toBe(generateApiKey(b).secret);
      }),
    );
    expect(generateApiKey(new Uint8Array(32)).secret).toBe(
      `dk_live_${'0'.repeat(43)}${checksum('0'.repeat(43))}`,
    );
    expect(generateApiKey(new Uint8Array(32).fill(255)).secret.slice(8, 51)).not.toMatch(/^0/);
  });

  it('uses CRC-32 of the body in 6 base62 digits as the checksum', () => {
    const { secret } = generateApiKey(randomBytes(API_KEY_RANDOM_BYTES));
    expect(secret.slice(51)).toBe(checksum(secret.slice(8, 51)));
  });

  it('refuses too few random bytes', () => {
    expect(() => generateApiKey(new Uint8Array(16))).toThrow(/32/);
  });
});

describe('sandbox (test-mode) keys', () => {
  it('match the prefix pattern exactly as the modes name them', () => {
    const prefix = new RegExp(`^${API_KEY_PREFIX_SOURCE}$`);
    expect(API_KEY_MODES.map((mode) => prefix.test(API_KEY_PREFIXES[mode]))).toEqual([true, true]);
    for (const other of ['dk_prod_', 'dk_live', 'dk__', 'DK_LIVE_']) expect(prefix.test(other)).toBe(false);
  });

  it('are dk_test_ keys of the same length, well-formed, found by the leak pattern, and name their mode', () => {
    fc.assert(
      fc.property(bytesArbitrary, (bytes) => {
        const key = generateApiKey(bytes, 'test');
        expect(key.secret).toMatch(/^dk_test_[0-9A-Za-z]{49}$/);
        expect(key.secret).toHaveLength(API_KEY_LENGTH);
        expect(key.mode).toBe('test');
        expect(isWellFormedApiKey(key.secret)).toBe(true);
        expect(apiKeyModeOf(key.secret)).toBe('test');
        expect(apiKeyModeOf(key.prefix)).toBe('test');
        expect(API_KEY_PATTERN.test(`token=${key.secret};`)).toBe(true);
      }),
    );
    expect(apiKeyModeOf(generateApiKey(new Uint8Array(32)).prefix)).toBe('live');
  });

  it('checksum their prefix too: a key whose mode prefix was swapped is malformed, either way', () => {
    fc.assert(
      fc.property(bytesArbitrary, (bytes) => {
        const live = generateApiKey(bytes, 'live').secret;
        const test = generateApiKey(bytes, 'test').secret;
        expect(test.slice(8, 51)).toBe(live.slice(8, 51));
        expect(test.slice(51)).toBe(checksum(`dk_test_${test.slice(8, 51)}`));
        expect(isWellFormedApiKey(live.replace('dk_live_', 'dk_test_'))).toBe(false);
        expect(isWellFormedApiKey(test.replace('dk_test_', 'dk_live_'))).toBe(false);
      }),
    );
  });
});

describe('isWellFormedApiKey', () => {
  const { secret } = generateApiKey(randomBytes(API_KEY_RANDOM_BYTES));

  it('breaks when any single character changes', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: secret.length - 1 }),
        fc.constantFrom(...`${BASE62}_-`),
        (index, replacement) => {
          fc.pre(secret[index] !== replacement);
          expect(isWellFormedApiKey(secret.slice(0, index) + replacement + secret.slice(index + 1))).toBe(
            false,
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['empty', ''],
    ['truncated', secret.slice(0, -1)],
    ['extended', `${secret}a`],
    ['test prefix', secret.replace('dk_live_', 'dk_test_')],
    ['upper-case prefix', secret.replace('dk_live_', 'DK_LIVE_')],
    ['whitespace', ` ${secret.slice(1)}`],
    ['bearer form', `Bearer ${secret}`],
    ['non-string', 42 as unknown as string],
  ])('rejects %s', (_name, candidate) => {
    expect(isWellFormedApiKey(candidate)).toBe(false);
  });

  it('rejects random strings of the right shape (checksum)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...BASE62), minLength: 49, maxLength: 49 }), (tail) => {
        const candidate = `dk_live_${tail}`;
        fc.pre(tail.slice(43) !== checksum(tail.slice(0, 43)));
        expect(isWellFormedApiKey(candidate)).toBe(false);
      }),
    );
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 hex of the secret', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const { secret, hash } = generateApiKey(randomBytes(API_KEY_RANDOM_BYTES));
    expect(hashApiKey(secret)).toBe(hash);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

// Independent reference: zlib's CRC-32 in fixed-width base62.
function checksum(body: string): string {
  let value = crc32(body);
  let digits = '';
  while (value > 0) {
    digits = BASE62.charAt(value % 62) + digits;
    value = Math.floor(value / 62);
  }
  return digits.padStart(6, '0');
}
