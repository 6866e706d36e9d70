import { encodeChangesCursor, feedAfterSnapshot, feedCursorAt, type FeedCursor } from './changes-cursor.js';
import type { FeedPosition } from './changes-cursor.js';
import type { Doctor } from '../places/doctor.js';
import type { ApiKeyMode } from '../keys/api-key.js';
import type { CountryCode } from '../events/events.js';
import { requirePageSize } from '../requests/query-parameters.js';

/**
 * One record's current state in a dataset's feed, at its position (what the event store reads): its
 * state version (only ever grows for a place, so a receiver can order what it gets) and when the change
 * was made (ISO 8601, UTC).
 */
export type FeedRow = {
  position: FeedPosition;
  served: boolean;
  doctor: Doctor | null;
  version: number;
  changedAt: string;
  /**
   * For a record no longer served because it was merged away: the final survivor of its merge chain
   * (merges.ts), read with the row. Null otherwise.
   */
  mergedInto: string | null;
};

/** A place a snapshot lists: served now in the dataset, with its doctor. */
export type ListedPlace = { placeId: string; doctor: Doctor };

/**
 * What the store read for one page from a cursor: a snapshot cursor's places (up to `limit + 1`), and,
 * when they fit in the page, the feed's changes after the snapshot (up to the room left, plus one); a feed
 * cursor's changes (up to `limit + 1`). The extra row tells whether more follow.
 */
export type FeedRead = { listed: ReadonlyArray<ListedPlace>; changes: ReadonlyArray<FeedRow> };

/**
 * `upsert`: the record is served with this doctor; `delete`: it is no longer served in this dataset;
 * `merged` (API 1.4, only when asked for with `merges`): it is no longer served because it was merged
 * into `mergedInto`. `changedAt` (API 1.3) only in a timed feed (see `FeedCursor`): 1.2 entries stay as
 * they were.
 */
export type ChangeEntry = {
  id: string;
  change: 'upsert' | 'delete' | 'merged';
  doctor: Doctor | null;
  mergedInto?: string;
  changedAt?: string;
};

/** How a page's entries are told: `merges` (API 1.4) names merged-away records' survivors. */
export type ChangesPageOptions = { merges?: boolean };

export type ChangesPage = {
  changes: ChangeEntry[];
  /** `nextCursor` is always set: a consumer resumes from it later, even when nothing more is there yet. */
  page: { count: number; hasMore: boolean; nextCursor: string };
};

/** The feed cursor a read from `from` continues in once no snapshot is left to list. */
export function feedPartOf(from: FeedCursor): Extract<FeedCursor, { kind: 'feed' }> {
  return from.kind === 'snapshot' ? feedAfterSnapshot(from.horizon) : from;
}

/**
 * How many changes to read after a snapshot page's `listed` places: the room left in the page plus one,
 * or none when the snapshot alone fills the page and more places follow.
 */
export function changesToRead(listed: number, limit: number): number {
  requirePageSize(limit);
  return listed > limit ? 0 : limit - listed + 1;
}

/**
 * A page from what was read after `from`. A snapshot page lists places as upserts; once the snapshot is
 * exhausted the rest of the page comes from the feed, so `hasMore` is true exactly while more is ready
 * now. The next cursor holds the last place or change returned, or the feed's position itself when
 * nothing was: sending it again later picks up whatever changed meanwhile.
 */
export function toChangesPage(
  read: FeedRead,
  limit: number,
  country: CountryCode,
  from: FeedCursor,
  secret: string,
  /** The mode of the key the page is for: its cursors are bound to it (see `encodeChangesCursor`). */
  mode: ApiKeyMode = 'live',
  { merges = false }: ChangesPageOptions = {},
): ChangesPage {
  requirePageSize(limit);
  const listed = read.listed.slice(0, limit).map(toUpsert);
  if (from.kind === 'snapshot' && read.listed.length > limit) {
    const last = read.listed[limit - 1] as ListedPlace;
    const next: FeedCursor = { kind: 'snapshot', horizon: from.horizon, after: last.placeId };
    return {
      changes: listed,
      page: {
        count: listed.length,
        hasMore: true,
        nextCursor: encodeChangesCursor(next, country, secret, mode),
      },
    };
  }
  const feed = feedPartOf(from);
  const room = limit - listed.length;
  const changes = read.changes.slice(0, room);
  const last = changes[changes.length - 1]?.position;
  const next = last === undefined ? feed : feedCursorAt(last, feed);
  const entries = [...listed, ...changes.map((row) => toChangeEntry(row, feed.timed, merges))];
  return {
    changes: entries,
    page: {
      count: entries.length,
      hasMore: read.changes.length > room,
      nextCursor: encodeChangesCursor(next, country, secret, mode),
    },
  };
}

function toUpsert(place: ListedPlace): ChangeEntry {
  return { id: place.placeId, change: 'upsert', doctor: place.doctor };
}

function toChangeEntry(row: FeedRow, timed: boolean, merges: boolean): ChangeEntry {
  const entry = changeOf(row, merges);
  return timed ? { ...entry, changedAt: row.changedAt } : entry;
}

function changeOf(row: FeedRow, merges: boolean): ChangeEntry {
  const id = row.position.placeId;
  // A served row always carries its doctor; anything else is a removal, whatever the row holds.
  if (row.served && row.doctor !== null) return { id, change: 'upsert', doctor: row.doctor };
  // Only a feed that asked for merges learns of them: to any other a merge is the removal it always was.
  if (merges && row.mergedInto !== null) {
    return { id, change: 'merged', doctor: null, mergedInto: row.mergedInto };
  }
  return { id, change: 'delete', doctor: null };
}
