import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { fail, ok, type Result } from './result.js';
import type { SearchFilters } from './search-params.js';
import { foldText } from './text.js';

/**
 * Opaque, signed page cursors (DESIGN "Query semantics").
 *
 * Token: `base64url(JSON {v: 1, a: [sortName, placeId], f: fingerprint})` + `.` +
 * `base64url(HMAC-SHA256(secret, "doctor-cursor." + first part))`.
 * - `a` is the sort values of the last record returned (Elasticsearch `search_after`). They are data
 *   values, not index internals, so a cursor stays valid across a reindex.
 * - `f` binds the cursor to the filters it was issued for: base64url SHA-256 of the canonical filters
 *   (sorted keys, lowercase country, folded q, absent filters omitted). A hash keeps the token short
 *   whatever q is; equivalent filters (key order, q casing/accents/spacing) give the same fingerprint.
 * - The MAC covers the exact text of the first part, and the signature is compared as text, so any
 *   change to any character (even one base64 would decode to the same bytes) is rejected.
 * - The MAC input has a fixed context prefix so a secret shared with another signer cannot be used to
 *   forge cursors from that signer's outputs.
 * Length is bounded elsewhere (2048): realistic names (≤ 300 characters) encode far below that.
 */
export const CURSOR_VERSION = 1;

export type CursorPayload = { after: [sortName: string, placeId: string]; filters: SearchFilters };

export const CURSOR_REASONS = {
  malformed: 'cursor is malformed; send page.nextCursor exactly as it was received',
  badSignature: 'cursor signature is invalid: it was altered or issued by another deployment',
  unsupportedVersion: 'cursor version is not supported; start again without a cursor',
  differentFilters:
    'cursor was issued for different filters; repeat the original filters or start without a cursor',
} as const;

const MAC_CONTEXT = 'doctor-cursor.';
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function encodeCursor(payload: CursorPayload, secret: string): string {
  requireSecret(secret);
  const body = Buffer.from(
    JSON.stringify({ v: CURSOR_VERSION, a: payload.after, f: filterFingerprint(payload.filters) }),
    'utf8',
  ).toString('base64url');
  return `${body}.${sign(body, secret)}`;
}

/** Returns the `search_after` values, or why the cursor cannot be used with these filters. */
export function decodeCursor(
  token: string,
  filters: SearchFilters,
  secret: string,
): Result<[string, string]> {
  requireSecret(secret);
  const parts = token.split('.');
  const [body, signature] = parts;
  if (parts.length !== 2 || !body || !signature || !BASE64URL.test(body) || !BASE64URL.test(signature)) {
    return fail(CURSOR_REASONS.malformed);
  }

  // Authenticate before interpreting anything the client sent.
  const expected = Buffer.from(sign(body, secret), 'ascii');
  const given = Buffer.from(signature, 'ascii');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return fail(CURSOR_REASONS.badSignature);
  }

  const payload = parseJson(Buffer.from(body, 'base64url').toString('utf8'));
  if (!isRecord(payload) || typeof payload.v !== 'number') return fail(CURSOR_REASONS.malformed);
  if (payload.v !== CURSOR_VERSION) return fail(CURSOR_REASONS.unsupportedVersion);
  const { a: after, f: fingerprint } = payload;
  if (!isSortValues(after) || typeof fingerprint !== 'string') return fail(CURSOR_REASONS.malformed);
  if (fingerprint !== filterFingerprint(filters)) return fail(CURSOR_REASONS.differentFilters);
  return ok([after[0], after[1]]);
}

/** Canonical, order-independent identity of a set of filters. */
export function filterFingerprint(filters: SearchFilters): string {
  const canonical: Record<string, string | boolean> = { country: filters.country.toLowerCase() };
  if (filters.city !== undefined) canonical.city = filters.city;
  if (filters.q !== undefined) canonical.q = foldText(filters.q);
  if (filters.whatsapp !== undefined) canonical.whatsapp = filters.whatsapp;
  if (filters.verified !== undefined) canonical.verified = filters.verified;
  const sorted = Object.fromEntries(Object.entries(canonical).sort(([x], [y]) => (x < y ? -1 : 1)));
  return createHash('sha256').update(JSON.stringify(sorted), 'utf8').digest('base64url');
}

function sign(body: string, secret: string): string {
  return createHmac('sha256', secret)
    .update(MAC_CONTEXT + body, 'utf8')
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

function isSortValues(value: unknown): value is [string, string] {
  return Array.isArray(value) && value.length === 2 && value.every((item) => typeof item === 'string');
}
