import type { ApiKeyMode } from '../keys/api-key.js';
import type { CountryCode } from '../events/events.js';
import { PLACE_ID_PATTERN } from '../events/events.js';
import { fail, ok, type Result } from '../shared/result.js';
import { openToken, signToken } from '../shared/signed-token.js';

/**
 * A position in the changes feed of one dataset: the transaction id (xid8, as decimal text) that last
 * changed a record, then the place id. The feed is read in this order, after the position.
 */
export type FeedPosition = { xid: string; placeId: string };

/** Before every change: the whole history of the dataset, removals of long-gone records included. */
export const FEED_START: FeedPosition = { xid: '0', placeId: '' };

/**
 * What a consumer's snapshot shows, fixed on its first read: the dataset's changes made by transactions
 * up to `upTo` (the newest change the dataset held then), except those of `running` (transactions still
 * running then, ascending, each at most `upTo`). Every other change, made later or by a transaction in
 * `running`, is the feed's to deliver after the snapshot.
 */
export type SnapshotHorizon = { upTo: string; running: string[] };

/**
 * Where a consumer is.
 * - `snapshot`: listing the places served now, in place-id order after `after` ('' before the first).
 * - `feed`: reading changes after `position`, leaving out those `shown` says the snapshot already showed
 *   (null once the position is past the snapshot's horizon, and for a consumer that never had one).
 *   `timed`: an API 1.3 feed (started at an instant, or after an export), whose entries carry
 *   `changedAt`; a feed started the 1.2 way keeps the 1.2 entries, byte for byte.
 */
export type FeedCursor =
  | { kind: 'snapshot'; horizon: SnapshotHorizon; after: string }
  | { kind: 'feed'; position: FeedPosition; shown: SnapshotHorizon | null; timed: boolean };

/**
 * The longest `running` list a cursor carries: with 20-digit ids and the longest place id, a cursor stays
 * within the 2048 characters `since` accepts. A longer list is cut (see `snapshotHorizon`).
 */
export const HORIZON_RUNNING_MAX = 40;

/**
 * Opaque, signed `since` cursors of the changes feed (`GET /api/v1/changes`), beside the search cursor
 * and sharing nothing with it but the secret.
 *
 * Token: `base64url(JSON payload)` + `.` + `base64url(HMAC-SHA256(secret, "changes-cursor." + first part))`.
 * Payloads (`v: 1`, `c`: the country):
 * - feed: `{v, x: xid, p: placeId, c}`, and `s: {u: upTo, r: running}` while the snapshot's horizon
 *   applies, and `t: 1` for a timed (API 1.3) feed. Without `s` and `t` it is byte for byte the cursor
 *   issued before snapshots existed.
 * - snapshot: `{v, s: {u, r}, p: last place id listed, c}`, told apart from a feed cursor by having no `x`.
 * - The MAC context differs from the search cursor's, so neither kind of cursor is accepted as the other.
 * - `c` binds the cursor to its dataset: positions of one country's feed mean nothing in another's.
 * - `m: "test"` binds a cursor issued to a sandbox (dk_test_) key to that mode: the sandbox is another
 *   database, whose positions mean nothing in the live one (and the reverse). A cursor without `m` is a
 *   live key's, so every cursor issued before the mode was added keeps working with live keys, and a
 *   live cursor is still byte for byte what it always was.
 * - The MAC covers the exact text of the first part, compared as text: any altered character is refused.
 */
export const CHANGES_CURSOR_VERSION = 1;

export const CHANGES_CURSOR_REASONS = {
  malformed: 'cursor is malformed; send page.nextCursor exactly as it was received',
  badSignature: 'cursor signature is invalid: it was altered or issued by another deployment',
  unsupportedVersion: 'cursor version is not supported; start again without since',
  otherCountry: 'cursor was issued for another country; send it with the country it came from',
  otherMode: {
    live: 'cursor was issued to a live key (dk_live_); send it with a live key, or start again without since',
    test: 'cursor was issued to a test key (dk_test_); send it with a test key, or start again without since',
  },
} as const;

const MAC_CONTEXT = 'changes-cursor.';
// xid8 is an unsigned 64-bit integer.
const XID_PATTERN = /^(?:0|[1-9]\d{0,19})$/;
const XID_MAX = 2n ** 64n - 1n;

/** The mode field of a cursor's payload: none for a live key's (the form every cursor had before). */
function modeBody(mode: ApiKeyMode): { m?: 'test' } {
  return mode === 'live' ? {} : { m: mode };
}

export function encodeChangesCursor(
  cursor: FeedCursor,
  country: CountryCode,
  secret: string,
  mode: ApiKeyMode = 'live',
): string {
  if (cursor.kind === 'snapshot') {
    const body = {
      v: CHANGES_CURSOR_VERSION,
      s: horizonBody(cursor.horizon),
      p: cursor.after,
      c: country,
      ...modeBody(mode),
    };
    return signToken(body, MAC_CONTEXT, secret);
  }
  const { position, shown, timed } = cursor;
  const body = {
    v: CHANGES_CURSOR_VERSION,
    x: position.xid,
    p: position.placeId,
    c: country,
    ...(shown === null ? {} : { s: horizonBody(shown) }),
    ...(timed ? { t: 1 } : {}),
    ...modeBody(mode),
  };
  return signToken(body, MAC_CONTEXT, secret);
}

/** Returns the cursor the token holds, or why it cannot be used for this country and key mode. */
export function decodeChangesCursor(
  token: string,
  country: CountryCode,
  secret: string,
  mode: ApiKeyMode = 'live',
): Result<FeedCursor> {
  const opened = openToken(token, MAC_CONTEXT, secret);
  if (!opened.ok) return fail(CHANGES_CURSOR_REASONS[opened.error]);
  const payload = opened.value;
  if (typeof payload.v !== 'number') return fail(CHANGES_CURSOR_REASONS.malformed);
  if (payload.v !== CHANGES_CURSOR_VERSION) return fail(CHANGES_CURSOR_REASONS.unsupportedVersion);
  const { x: xid, p: placeId, c: issuedFor, s, t: timed, m: issuedTo } = payload;
  const horizon = s === undefined ? null : horizonFrom(s);
  const wellFormed =
    isPlaceIdOrStart(placeId) &&
    typeof issuedFor === 'string' &&
    (s === undefined || horizon !== null) &&
    (xid === undefined ? horizon !== null && timed === undefined : isXid(xid)) &&
    (timed === undefined || timed === 1) &&
    (issuedTo === undefined || issuedTo === 'test');
  if (!wellFormed) return fail(CHANGES_CURSOR_REASONS.malformed);
  const issuedMode: ApiKeyMode = issuedTo === 'test' ? 'test' : 'live';
  if (issuedMode !== mode) return fail(CHANGES_CURSOR_REASONS.otherMode[issuedMode]);
  if (issuedFor !== country) return fail(CHANGES_CURSOR_REASONS.otherCountry);
  if (xid === undefined && horizon !== null) return ok({ kind: 'snapshot', horizon, after: placeId });
  return ok({ kind: 'feed', position: { xid: xid as string, placeId }, shown: horizon, timed: timed === 1 });
}

/**
 * The horizon of a snapshot taken when the dataset's newest change was by transaction `upTo` ('0' for a
 * dataset with none) while the transactions `running` had not finished. Only running transactions up to
 * `upTo` matter (any later change is delivered anyway). Past `HORIZON_RUNNING_MAX` of them, `upTo` is
 * lowered to just below the first one left out: the feed then also delivers the changes between, which
 * the snapshot showed too. A consumer gets them twice (a removal of a record it does not hold, at worst),
 * but never misses one.
 */
export function snapshotHorizon(upTo: string, running: ReadonlyArray<string>): SnapshotHorizon {
  const top = BigInt(upTo);
  const below = [...new Set(running)]
    .map(BigInt)
    .filter((xid) => xid <= top)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const first = below[HORIZON_RUNNING_MAX];
  const kept = below.slice(0, HORIZON_RUNNING_MAX);
  return { upTo: String(first === undefined ? top : first - 1n), running: kept.map(String) };
}

/** A new consumer's first cursor: the snapshot at this horizon, from its first place. */
export function snapshotStart(horizon: SnapshotHorizon): FeedCursor {
  return { kind: 'snapshot', horizon, after: '' };
}

/**
 * Where the feed takes over once a snapshot is listed: from its oldest running transaction, or just past
 * `upTo` when none was running, leaving out what the snapshot showed. `timed` after an export (API 1.3),
 * not after the feed's own snapshot (API 1.2).
 */
export function feedAfterSnapshot(
  horizon: SnapshotHorizon,
  { timed }: { timed: boolean } = { timed: false },
): Extract<FeedCursor, { kind: 'feed' }> {
  const [oldestRunning] = horizon.running;
  if (oldestRunning === undefined) {
    const position = { xid: String(BigInt(horizon.upTo) + 1n), placeId: '' };
    return { kind: 'feed', position, shown: null, timed };
  }
  return { kind: 'feed', position: { xid: oldestRunning, placeId: '' }, shown: horizon, timed };
}

/**
 * A timed feed from `fence` (the fence of the newest feed clock fact at or before the instant asked
 * for; see `feedFenceAt` in the event store): every change committed after that instant was made by a
 * transaction at or above the fence.
 */
export function feedFromFence(fence: string): Extract<FeedCursor, { kind: 'feed' }> {
  return { kind: 'feed', position: { xid: fence, placeId: '' }, shown: null, timed: true };
}

/** The cursor after `position` in the feed `from`; the horizon stops applying once the position is past it. */
export function feedCursorAt(
  position: FeedPosition,
  from: Extract<FeedCursor, { kind: 'feed' }>,
): Extract<FeedCursor, { kind: 'feed' }> {
  const { shown, timed } = from;
  const applies = shown !== null && BigInt(position.xid) <= BigInt(shown.upTo);
  return { kind: 'feed', position, shown: applies ? shown : null, timed };
}

function horizonBody(horizon: SnapshotHorizon): { u: string; r: string[] } {
  return { u: horizon.upTo, r: horizon.running };
}

/** A signed horizon as `snapshotHorizon` makes them (running ascending, at most upTo), or null. */
function horizonFrom(value: unknown): SnapshotHorizon | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { u: upTo, r: running } = value as Record<string, unknown>;
  if (!isXid(upTo) || !Array.isArray(running) || running.length > HORIZON_RUNNING_MAX) return null;
  if (!running.every(isXid)) return null;
  const ids = running.map(BigInt);
  const ascending = ids.every((xid, at) => at === 0 || (ids[at - 1] as bigint) < xid);
  if (!ascending || ids.some((xid) => xid > BigInt(upTo))) return null;
  return { upTo, running: [...running] };
}

function isXid(value: unknown): value is string {
  return typeof value === 'string' && XID_PATTERN.test(value) && BigInt(value) <= XID_MAX;
}

function isPlaceIdOrStart(value: unknown): value is string {
  return typeof value === 'string' && (value === '' || PLACE_ID_PATTERN.test(value));
}
