import { encodeChangesCursor, type FeedPosition } from './changes-cursor.js';
import type { Doctor } from '../doctor.js';
import type { CountryCode } from '../events.js';
import { requirePageSize } from '../query-parameters.js';

/** One record's current state in a dataset's feed, at its position (what the event store reads). */
export type FeedRow = { position: FeedPosition; served: boolean; doctor: Doctor | null };

/** `upsert`: the record is served with this doctor; `delete`: it is no longer served in this dataset. */
export type ChangeEntry = { id: string; change: 'upsert' | 'delete'; doctor: Doctor | null };

export type ChangesPage = {
  changes: ChangeEntry[];
  /** `nextCursor` is always set: a consumer resumes from it later, even when nothing more is there yet. */
  page: { count: number; hasMore: boolean; nextCursor: string };
};

/**
 * A page of the feed from rows read after `from` in feed order (up to `limit + 1`: one more tells
 * whether more follow). The next cursor holds the last position returned, or `from` itself when
 * nothing was: sending it again later picks up whatever changed meanwhile.
 */
export function toChangesPage(
  rows: ReadonlyArray<FeedRow>,
  limit: number,
  country: CountryCode,
  from: FeedPosition,
  secret: string,
): ChangesPage {
  requirePageSize(limit);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1]?.position ?? from;
  return {
    changes: page.map(toChangeEntry),
    page: {
      count: page.length,
      hasMore: rows.length > limit,
      nextCursor: encodeChangesCursor(last, country, secret),
    },
  };
}

function toChangeEntry(row: FeedRow): ChangeEntry {
  // A served row always carries its doctor; anything else is a removal, whatever the row holds.
  if (row.served && row.doctor !== null) {
    return { id: row.position.placeId, change: 'upsert', doctor: row.doctor };
  }
  return { id: row.position.placeId, change: 'delete', doctor: null };
}
