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

/** False for a wrong password and for any hash that is not ours (e.g. '!', the unusable hash). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
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
    return false;
  }
  const actual = await derive(password, salt, n, r, p, expected.length);
  return timingSafeEqual(actual, expected);
}

/** Spends the same time as a real check, so an unknown email cannot be told apart by response time. */
export async function verifyAgainstDummy(password: string): Promise<void> {
  await verifyPassword(password, DUMMY_HASH);
}

const DUMMY_HASH = `scrypt$${COST}$${BLOCK_SIZE}$${PARALLELIZATION}$${Buffer.alloc(SALT_BYTES).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`;

function isPositiveInt(value: number | undefined): value is number {
  return value !== undefined && Number.isSafeInteger(value) && value > 0;
}
