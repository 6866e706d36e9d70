/**
 * The IETF httpapi rate-limit draft's current fields (draft-ietf-httpapi-ratelimit-headers), RFC 8941
 * structured fields: `RateLimit-Policy` is a List of the quota policies, each a String item (its name)
 * with `q` (the quota) and `w` (the window in seconds); `RateLimit` is a List of the policies' states,
 * each with `r` (what is left) and `t` (seconds until the quota resets). We serve one policy: the key's
 * own quota (the account's ceiling has no headers of its own).
 */

/** The name of the key's quota policy in both fields. */
export const KEY_POLICY_NAME = 'key';

// RFC 8941 Integers have at most 15 digits; the draft's q, w, r and t are non-negative.
const MAX_SF_INTEGER = 999_999_999_999_999;

/** `RateLimit-Policy: "key";q=<quota>;w=<window seconds>`. */
export function rateLimitPolicyField(name: string, quota: number, windowSeconds: number): string {
  return `${sfString(name)};q=${sfInteger(quota)};w=${sfInteger(windowSeconds)}`;
}

/** `RateLimit: "key";r=<remaining>;t=<seconds until the window resets>`. */
export function rateLimitField(name: string, remaining: number, resetSeconds: number): string {
  return `${sfString(name)};r=${sfInteger(remaining)};t=${sfInteger(resetSeconds)}`;
}

function sfInteger(value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > MAX_SF_INTEGER) {
    throw new RangeError(`not a non-negative structured-field integer: ${value}`);
  }
  return value;
}

// An RFC 8941 String: printable ASCII, with `"` and `\` escaped.
function sfString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new RangeError('a structured-field string is printable ASCII');
  return `"${value.replace(/["\\]/g, (character) => `\\${character}`)}"`;
}
