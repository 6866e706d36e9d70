import { createHash } from 'node:crypto';
import { fail, ok, type Result } from '../shared/result.js';
import { openToken, signToken } from '../shared/signed-token.js';
import { canonicalFilters, canonicalInternalFilters, type SearchFilters } from './search-filters.js';
import type { SortOrder } from './search-order.js';

/**
 * Opaque, signed page cursors (docs/api.md, `GET /api/v1/doctors` — search: paging).
 *
 * Token: `base64url(JSON {v: 1, a: [sortName, placeId], f: fingerprint})` + `.` +
 * `base64url(HMAC-SHA256(secret, "doctor-cursor." + first part))`.
 * - `a` is the sort values of the last record returned (Elasticsearch `search_after`). They are data
 *   values, not index internals, so a cursor stays valid across a reindex. A search by name holds
 *   `[sortName, placeId]`; a geo search (`near`) holds `[distance in metres, placeId]`, the
 *   distance a JSON number, so both kinds share version 1 and name cursors keep their exact bytes. The
 *   fingerprint binds `near`, so a cursor of one kind is never accepted for the other. A relevance search
 *   holds `[score, placeId]`, and its fingerprint binds `sort`.
 * - `f` binds the cursor to the filters it was issued for: base64url SHA-256 of the canonical filters
 *   (sorted names, each value in the filter table's canonical form, absent filters omitted), so every
 *   filter of the table binds the cursor. A hash keeps the token short whatever q is; equivalent
 *   filters (key order, country casing, q casing/accents/spacing) give the same fingerprint.
 * - The MAC covers the exact text of the first part, and the signature is compared as text, so any
 *   change to any character (even one base64 would decode to the same bytes) is rejected.
 * - The MAC input has a fixed context prefix so a secret shared with another signer cannot be used to
 *   forge cursors from that signer's outputs.
 *
 * Length: an issued cursor must always be accepted back, so it must fit CURSOR_MAX_LENGTH (2048) for
 * any record. The sort key is what could grow (a name may have 1,000 characters), so the projection
 * bounds it instead: `sortName` keeps the first SORT_NAME_MAX_CODE_POINTS code points of the folded
 * name. Worst case, in bytes of the JSON part: 13 (`{"v":1,"a":["`) + 6 per code point (a control
 * character or lone surrogate is escaped as `\uXXXX`; anything else takes at most 4 UTF-8 bytes) +
 * 3 (`","`) + 128 (the longest place id, ASCII) + 8 (`"],"f":"`) + 43 (fingerprint) + 2 (`"}`)
 * = 197 + 6 × 200 = 1,397; base64url makes that ⌈1,397 × 4 / 3⌉ = 1,863, plus `.` and the 43-character
 * MAC: 1,907 ≤ 2,048. (cursor.unit.spec checks it over worst-case and random inputs.)
 */
export const CURSOR_VERSION = 1;

/** What a cursor resumes after: the folded name (or, for a geo search, the distance) and the place id. */
export type SortValues = [sortNameOrDistance: string | number, placeId: string];

/**
 * What a cursor resumes and is bound to: the sort values, the filters, and the order when the search
 * named one that is not its filters' default (search-order.ts); a default order binds nothing more, so
 * those cursors keep the bytes 1.2 gave them.
 */
export type CursorPayload = { after: SortValues; filters: SearchFilters; sort?: SortOrder };

export const CURSOR_REASONS = {
  malformed: 'cursor is malformed; send page.nextCursor exactly as it was received',
  badSignature: 'cursor signature is invalid: it was altered or issued by another deployment',
  unsupportedVersion: 'cursor version is not supported; start again without a cursor',
  differentFilters:
    'cursor was issued for different filters; repeat the original filters or start without a cursor',
} as const;

const MAC_CONTEXT = 'doctor-cursor.';

export function encodeCursor(payload: CursorPayload, secret: string): string {
  const body = { v: CURSOR_VERSION, a: payload.after, f: filterFingerprint(payload.filters, payload.sort) };
  return signToken(body, MAC_CONTEXT, secret);
}

/**
 * Returns the `search_after` values, or why the cursor cannot be used with these filters and this order
 * (`sort`: the order the search named when it is not its filters' default, as in `CursorPayload`).
 */
export function decodeCursor(
  token: string,
  filters: SearchFilters,
  secret: string,
  sort?: SortOrder,
): Result<SortValues> {
  const opened = openToken(token, MAC_CONTEXT, secret);
  if (!opened.ok) return fail(CURSOR_REASONS[opened.error]);
  const payload = opened.value;
  if (typeof payload.v !== 'number') return fail(CURSOR_REASONS.malformed);
  if (payload.v !== CURSOR_VERSION) return fail(CURSOR_REASONS.unsupportedVersion);
  const { a: after, f: fingerprint } = payload;
  if (!isSortValues(after) || typeof fingerprint !== 'string') return fail(CURSOR_REASONS.malformed);
  if (fingerprint !== filterFingerprint(filters, sort)) return fail(CURSOR_REASONS.differentFilters);
  return ok([after[0], after[1]]);
}

/**
 * Canonical, order-independent identity of a set of filters, and of the order when one is bound (no
 * filter is named `sort` or `internal`, so they cannot be confused), with the internal filters
 * (search-filters.ts) when a search has any.
 */
export function filterFingerprint(filters: SearchFilters, sort?: SortOrder): string {
  const entries: Array<readonly [string, unknown]> = canonicalFilters(filters).map(
    ({ name, value }) => [name, value] as const,
  );
  if (sort !== undefined) entries.push(['sort', sort]);
  // Only a search with internal filters binds them: every other cursor keeps its bytes.
  const internal = canonicalInternalFilters(filters.internal);
  if (internal !== null) entries.push(['internal', internal]);
  const sorted = Object.fromEntries(entries.sort(([x], [y]) => (x < y ? -1 : 1)));
  return createHash('sha256').update(JSON.stringify(sorted), 'utf8').digest('base64url');
}

function isSortValues(value: unknown): value is SortValues {
  if (!Array.isArray(value) || value.length !== 2) return false;
  const [first, placeId] = value as unknown[];
  const isDistance = typeof first === 'number' && Number.isFinite(first) && first >= 0;
  return (typeof first === 'string' || isDistance) && typeof placeId === 'string';
}
