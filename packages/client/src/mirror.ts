import type { ChangesPage, ChangesParams, Doctor } from './types.js';

/** Where a mirror is kept: any database or map, as long as each call is done when its promise settles. */
export type MirrorStore = {
  /** Put `record` under `record.id` (new or changed). */
  upsert(record: Doctor): void | Promise<void>;
  /** The record `id` is no longer served in the dataset; it may be one the store never held (ignore it). */
  remove(id: string): void | Promise<void>;
  /** Called after each page is applied: the cursor to resume from. Keep it with the records if you can. */
  saveCursor(cursor: string): void | Promise<void>;
  /**
   * API 1.4, optional: the record `id` was merged into the record `into` (the same practice listed twice),
   * called after `remove(id)`, so the store can point the old id at the survivor. Given, the feed is read
   * with `merges=true`; without it a merge is a removal like any other.
   */
  merged?(id: string, into: string): void | Promise<void>;
};

export type MirrorOptions = {
  /** The dataset, e.g. `de`. */
  country: ChangesParams['country'];
  store: MirrorStore;
  /** The last saved cursor; none starts over from a snapshot (every record served now, as upserts). */
  cursor?: string | undefined;
  /** Changes per page, 1..1000 (default the API's, 100). */
  limit?: number;
  signal?: AbortSignal;
};

export type MirrorResult = {
  /** The cursor to resume from next time (also given to `saveCursor`). */
  cursor: string;
  upserts: number;
  removals: number;
  pages: number;
};

type FeedReader = { changePages(params: ChangesParams): AsyncIterable<ChangesPage> };

/**
 * Reads the feed from `cursor` until no more is ready, applying each page in order before saving its
 * cursor: a sync stopped midway resumes from the last page it completed, and applying a page twice is
 * harmless (upserts and deletes of a record's current state are idempotent).
 */
export async function syncMirror(reader: FeedReader, options: MirrorOptions): Promise<MirrorResult> {
  const result: MirrorResult = { cursor: options.cursor ?? '', upserts: 0, removals: 0, pages: 0 };
  const params: ChangesParams = {
    country: options.country,
    ...(options.cursor === undefined ? {} : { since: options.cursor }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.store.merged === undefined ? {} : { merges: true }),
  };
  for await (const page of reader.changePages(params)) {
    for (const change of page.changes) {
      if (change.change === 'upsert' && change.doctor !== null) {
        await options.store.upsert(change.doctor);
        result.upserts += 1;
      } else if (change.change === 'delete') {
        await options.store.remove(change.id);
        result.removals += 1;
      } else if (change.change === 'merged') {
        await options.store.remove(change.id);
        if (change.mergedInto !== undefined) await options.store.merged?.(change.id, change.mergedInto);
        result.removals += 1;
      }
    }
    await options.store.saveCursor(page.page.nextCursor);
    result.cursor = page.page.nextCursor;
    result.pages += 1;
  }
  return result;
}
