import { sql } from 'kysely';
import type { Database } from '@directory/database';
import type { DailyUsage } from '@directory/domain';

/** One key's count on one UTC day (`limited`: requests answered 429). */
export type KeyDayCount = DailyUsage & { keyId: string };

/**
 * Counts gathered by the API and MCP processes (through Redis) and added to PostgreSQL in one go. `id`
 * names the batch: adding the same batch twice adds it once.
 */
export type UsageBatch = {
  id: string;
  counts: ReadonlyArray<KeyDayCount>;
  lastUsed: ReadonlyArray<{ keyId: string; at: Date }>;
};

// Batch ids older than this are forgotten: a batch is retried within a flush interval or two of a crash.
const REMEMBERED_BATCHES = sql`interval '7 days'`;

/**
 * Adds a usage batch: per key and day counts, and each key's last use (never moved backwards). Returns
 * false when this batch was already added (a flush retried after a crash between this commit and the
 * batch's removal from Redis). Keys deleted meanwhile are skipped.
 */
export async function addUsageBatch(db: Database, batch: UsageBatch): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('api_key_usage_flushes')
      .values({ id: batch.id })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (fresh === undefined) return false;

    if (batch.counts.length > 0) {
      await sql`
        insert into api_key_usage (key_id, day, requests, limited)
        select counts.key_id, counts.day, counts.requests, counts.limited
        from unnest(${batch.counts.map((count) => count.keyId)}::text[],
                    ${batch.counts.map((count) => count.day)}::date[],
                    ${batch.counts.map((count) => count.requests)}::bigint[],
                    ${batch.counts.map((count) => count.limited)}::bigint[])
             as counts (key_id, day, requests, limited)
        join api_keys on api_keys.id = counts.key_id
        on conflict (key_id, day) do update
          set requests = api_key_usage.requests + excluded.requests,
              limited = api_key_usage.limited + excluded.limited`.execute(trx);
    }
    if (batch.lastUsed.length > 0) {
      await sql`
        update api_keys set last_used_at = greatest(api_keys.last_used_at, used.at)
        from unnest(${batch.lastUsed.map((used) => used.keyId)}::text[],
                    ${batch.lastUsed.map((used) => used.at.toISOString())}::timestamptz[]) as used (key_id, at)
        where api_keys.id = used.key_id`.execute(trx);
    }
    await trx
      .deleteFrom('api_key_usage_flushes')
      .where('applied_at', '<', sql<Date>`now() - ${REMEMBERED_BATCHES}`)
      .execute();
    return true;
  });
}

/** Daily counts of these keys from `sinceDay` (`YYYY-MM-DD`, inclusive) on; days without use are absent. */
export async function usageOfKeys(
  db: Database,
  keyIds: ReadonlyArray<string>,
  sinceDay: string,
): Promise<KeyDayCount[]> {
  if (keyIds.length === 0) return [];
  const rows = await db
    .selectFrom('api_key_usage')
    .select(['key_id', sql<string>`day::text`.as('day'), 'requests', 'limited'])
    .where('key_id', 'in', keyIds)
    .where('day', '>=', sinceDay)
    .orderBy('day')
    .execute();
  return rows.map((row) => ({
    keyId: row.key_id,
    day: row.day,
    requests: row.requests,
    limited: row.limited,
  }));
}
