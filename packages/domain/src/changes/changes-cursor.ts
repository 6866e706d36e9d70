import type { CountryCode } from '../events.js';
import { PLACE_ID_PATTERN } from '../events.js';
import { fail, ok, type Result } from '../result.js';
import { openToken, signToken } from '../signed-token.js';

/**
 * A position in the changes feed of one dataset: the transaction id (xid8, as decimal text) that last
 * changed a record, then the place id. The feed is read in this order, after the position.
 */
export type FeedPosition = { xid: string; placeId: string };

/** Before every change: a feed read from here is a full snapshot of the dataset, as changes. */
export const FEED_START: FeedPosition = { xid: '0', placeId: '' };

/**
 * Opaque, signed `since` cursors of the changes feed (`GET /api/v1/changes`), beside the search cursor
 * and sharing nothing with it but the secret.
 *
 * Token: `base64url(JSON {v: 1, x: xid, p: placeId, c: country})` + `.` +
 * `base64url(HMAC-SHA256(secret, "changes-cursor." + first part))`.
 * - The MAC context differs from the search cursor's, so neither kind of cursor is accepted as the other.
 * - `c` binds the cursor to its dataset: positions of one country's feed mean nothing in another's.
 * - The MAC covers the exact text of the first part, compared as text: any altered character is refused.
 */
export const CHANGES_CURSOR_VERSION = 1;

export const CHANGES_CURSOR_REASONS = {
  malformed: 'cursor is malformed; send page.nextCursor exactly as it was received',
  badSignature: 'cursor signature is invalid: it was altered or issued by another deployment',
  unsupportedVersion: 'cursor version is not supported; start again without since',
  otherCountry: 'cursor was issued for another country; send it with the country it came from',
} as const;

const MAC_CONTEXT = 'changes-cursor.';
// xid8 is an unsigned 64-bit integer.
const XID_PATTERN = /^(?:0|[1-9]\d{0,19})$/;
const XID_MAX = 2n ** 64n - 1n;

export function encodeChangesCursor(position: FeedPosition, country: CountryCode, secret: string): string {
  const body = { v: CHANGES_CURSOR_VERSION, x: position.xid, p: position.placeId, c: country };
  return signToken(body, MAC_CONTEXT, secret);
}

/** Returns the position the cursor holds, or why it cannot be used for this country. */
export function decodeChangesCursor(
  token: string,
  country: CountryCode,
  secret: string,
): Result<FeedPosition> {
  const opened = openToken(token, MAC_CONTEXT, secret);
  if (!opened.ok) return fail(CHANGES_CURSOR_REASONS[opened.error]);
  const payload = opened.value;
  if (typeof payload.v !== 'number') return fail(CHANGES_CURSOR_REASONS.malformed);
  if (payload.v !== CHANGES_CURSOR_VERSION) return fail(CHANGES_CURSOR_REASONS.unsupportedVersion);
  const { x: xid, p: placeId, c: issuedFor } = payload;
  if (!isXid(xid) || !isPlaceIdOrStart(placeId) || typeof issuedFor !== 'string') {
    return fail(CHANGES_CURSOR_REASONS.malformed);
  }
  if (issuedFor !== country) return fail(CHANGES_CURSOR_REASONS.otherCountry);
  return ok({ xid, placeId });
}

function isXid(value: unknown): value is string {
  return typeof value === 'string' && XID_PATTERN.test(value) && BigInt(value) <= XID_MAX;
}

function isPlaceIdOrStart(value: unknown): value is string {
  return typeof value === 'string' && (value === '' || PLACE_ID_PATTERN.test(value));
}
