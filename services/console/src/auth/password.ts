import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt (a memory-hard KDF; never a plain SHA-256). The stored form carries its
 * own parameters and salt, `scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>`, so the cost can be
 * raised later without invalidating existing hashes.
 */
const COST = 2 ** 15;
const BLOCK_SIZE = 8;
const PARALLELIZATION = 1;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;

export const MIN_PASSWORD_LENGTH = 10;
// scrypt's cost does not depend on the input length, but nobody needs more, and it bounds request size.
export const MAX_PASSWORD_LENGTH = 1024;

function derive(
  password: string,
  salt: Buffer,
  n: number,
  r: number,
  p: number,
  length: number,
): Promise<Buffer> {
  // Node's default maxmem (32 MiB) is below what N=2^15, r=8 needs (128·N·r = 32 MiB + overhead).
  const options: ScryptOptions = { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST, BLOCK_SIZE, PARALLELIZATION, KEY_LENGTH);
  return [
    'scrypt',
    COST,
    BLOCK_SIZE,
    PARALLELIZATION,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** What one check derives and compares with: scrypt's parameters, the salt and the expected key. */
export type PasswordCheck = { n: number; r: number; p: number; salt: Buffer; expected: Buffer };

/** A stored hash's check, or null for a value that is no hash of ours (e.g. '!', the unusable hash). */
export function parseStoredHash(stored: string): PasswordCheck | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  if (
    !isPositiveInt(n) ||
    !isPositiveInt(r) ||
    !isPositiveInt(p) ||
    salt.length === 0 ||
    expected.length === 0
  ) {
    return null;
  }
  return { n, r, p, salt, expected };
}

/**
 * The check a sign-in runs for a stored value: the stored hash's own, or, when there is none (an
 * unknown email: null) or it is unusable (an operator-created account's '!'), the dummy hash's, which
 * costs what a real hash of today's parameters costs and is never allowed to match. Every sign-in so
 * spends the same scrypt work, and response time does not tell which kind of account an email has.
 */
export function passwordCheckFor(stored: string | null): { check: PasswordCheck; canMatch: boolean } {
  const check = stored === null ? null : parseStoredHash(stored);
  return check === null ? { check: DUMMY_CHECK, canMatch: false } : { check, canMatch: true };
}

/** False for a wrong password and for a missing or unusable hash, after the same scrypt work. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const { check, canMatch } = passwordCheckFor(stored);
  const actual = await derive(password, check.salt, check.n, check.r, check.p, check.expected.length);
  return timingSafeEqual(actual, check.expected) && canMatch;
}

const DUMMY_CHECK: PasswordCheck = {
  n: COST,
  r: BLOCK_SIZE,
  p: PARALLELIZATION,
  salt: Buffer.alloc(SALT_BYTES),
  expected: Buffer.alloc(KEY_LENGTH),
};

function isPositiveInt(value: number | undefined): value is number {
  return value !== undefined && Number.isSafeInteger(value) && value > 0;
}
