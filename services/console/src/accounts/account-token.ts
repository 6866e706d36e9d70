import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** What a mailed link is for; a token made for one purpose is refused for the other. */
export type AccountTokenPurpose = 'verify-email' | 'reset-password';

/** The random part's size: 256 bits, beyond guessing. */
export const ACCOUNT_TOKEN_RANDOM_BYTES = 32;

// Two base64url parts of 32 bytes each (43 characters): the random part, then its HMAC. Fixed lengths,
// one character class each: linear, and anything longer is refused before any hashing.
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;

function signatureOf(secret: string, purpose: AccountTokenPurpose, randomPart: string): Buffer {
  return createHmac('sha256', secret).update(`console-account-token\n${purpose}\n${randomPart}`).digest();
}

/** The row id a token is stored under: the SHA-256 of its random part (the token itself is never stored). */
function idOf(randomPart: string): string {
  return createHash('sha256').update(randomPart, 'utf8').digest('hex');
}

/**
 * A link token: `<random>.<HMAC(CONSOLE_SECRET, purpose, random)>`. The signature binds the token to its
 * purpose and lets a forged or altered token be refused without a database query; the random part,
 * stored only as its hash, is what makes it single-use and expiring (the row says so).
 */
export function mintAccountToken(
  secret: string,
  purpose: AccountTokenPurpose,
  random: Uint8Array,
): { token: string; id: string } {
  if (random.length !== ACCOUNT_TOKEN_RANDOM_BYTES)
    throw new RangeError(`an account token needs ${ACCOUNT_TOKEN_RANDOM_BYTES} random bytes`);
  const randomPart = Buffer.from(random).toString('base64url');
  const signature = signatureOf(secret, purpose, randomPart).toString('base64url');
  return { token: `${randomPart}.${signature}`, id: idOf(randomPart) };
}

/**
 * The row id of a well-formed token whose signature matches this purpose, or null (malformed, altered,
 * signed with another secret, or made for the other purpose). Whether it is still usable is the row's
 * business (expiry, single use, account).
 */
export function readAccountToken(secret: string, purpose: AccountTokenPurpose, token: string): string | null {
  const match = TOKEN_PATTERN.exec(token);
  if (match === null) return null;
  const [, randomPart = '', signature = ''] = match;
  const expected = signatureOf(secret, purpose, randomPart);
  const sent = Buffer.from(signature, 'base64url');
  // 43 base64url characters may still decode to 32 bytes with stray low bits: compare the canonical text.
  if (sent.length !== expected.length || sent.toString('base64url') !== signature) return null;
  return timingSafeEqual(sent, expected) ? idOf(randomPart) : null;
}
