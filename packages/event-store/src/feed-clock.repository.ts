import { sql } from 'kysely';
import type { Database } from '@directory/database';

/**
 * The feed clock (migration 0011): facts "at `at`, every transaction with an id below `fence` had
 * finished", so that a feed can start at an instant (`GET /api/v1/changes?since=<instant>`).
 *
 * The fact is true whoever records it and whenever: the statement's snapshot is taken before its
 * `clock_timestamp()` is read, and every transaction below the snapshot's xmin had finished by then. The
 * worker records one every `FEED_CLOCK_INTERVAL_MS`; without recent facts a feed starts earlier than
 * asked (more changes, none missed).
 */
export const FEED_CLOCK_INTERVAL_MS = 5_000;

/** How long facts are kept: a feed started further back starts at the beginning of the feed. */
export const FEED_CLOCK_RETENTION_DAYS = 35;

/** Records one fact now, and forgets the facts past the retention. */
export async function recordFeedClock(db: Database): Promise<void> {
  await sql`
    insert into feed_clock (at, fence)
    values (clock_timestamp(), pg_snapshot_xmin(pg_current_snapshot()))
    on conflict (at) do nothing`.execute(db);
  await sql`
    delete from feed_clock
    where at < now() - make_interval(days => ${FEED_CLOCK_RETENTION_DAYS})`.execute(db);
}

/**
 * The fence from which every change committed after `instant` is in the feed: that of the newest fact
 * at or before it, or '0' (the whole feed) when none is that old.
 */
export async function feedFenceAt(db: Database, instant: Date): Promise<string> {
  const result = await sql<{ fence: string }>`
    select fence::text as fence from feed_clock where at <= ${instant}
    order by at desc limit 1`.execute(db);
  return result.rows[0]?.fence ?? '0';
}
