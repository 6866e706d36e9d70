import { createHmac, timingSafeEqual } from 'node:crypto';
import { fail, ok, type Result } from './result.js';

/**
 * The signed tokens behind the API's opaque cursors: `base64url(JSON payload)` + `.` +
 * `base64url(HMAC-SHA256(secret, context + first part))`.
 * - The context differs per kind of token, so one kind is never accepted as another.
 * - The MAC covers the exact text of the first part and is compared as text (constant time), so any
 *   altered character is refused, even one base64 would decode to the same bytes.
 * - Nothing the client sent is interpreted before the signature is checked.
 */
export type TokenFailure = 'malformed' | 'badSignature';

const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function signToken(payload: object, context: string, secret: string): string {
  requireSecret(secret);
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${sign(body, context, secret)}`;
}

/** The payload of a token this deployment signed with this context, or why it is not one. */
export function openToken(
  token: string,
  context: string,
  secret: string,
): Result<Record<string, unknown>, TokenFailure> {
  requireSecret(secret);
  const parts = token.split('.');
  const [body, signature] = parts;
  if (parts.length !== 2 || !body || !signature || !BASE64URL.test(body) || !BASE64URL.test(signature)) {
    return fail('malformed');
  }
  const expected = Buffer.from(sign(body, context, secret), 'ascii');
  const given = Buffer.from(signature, 'ascii');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return fail('badSignature');
  const payload = parseJson(Buffer.from(body, 'base64url').toString('utf8'));
  return isRecord(payload) ? ok(payload) : fail('malformed');
}

function sign(body: string, context: string, secret: string): string {
  return createHmac('sha256', secret)
    .update(context + body, 'utf8')
    .digest('base64url');
}

function requireSecret(secret: string): void {
  // A programming or configuration error, not a bad request: config guarantees a long secret.
  if (secret.length === 0) throw new Error('cursor secret must not be empty');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
