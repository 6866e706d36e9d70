import { createHash } from 'node:crypto';
import type { Database } from '@directory/database';

export type DeadLetterInput = {
  raw: unknown;
  reason: string;
  /** Where it came from, e.g. `ingest:events.ndjson:42` or `worker`. */
  source: string;
};

export type DeadLetter = {
  id: number;
  eventId: string | null;
  placeId: string | null;
  reason: string;
  raw: unknown;
  source: string;
  receivedAt: Date;
  redrivenAt: Date | null;
};

/** PostgreSQL text cannot hold NUL; the exact bytes live on in `raw`, where JSON escapes them. */
function storableText(value: string): string {
  return value.replaceAll('\u0000', '\uFFFD');
}

function stringField(raw: unknown, field: string): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const value = (raw as Record<string, unknown>)[field];
  return typeof value === 'string' ? storableText(value.slice(0, 200)) : null;
}

/**
 * Records rejected input. The raw payload is kept as JSON text, so anything a producer can send is
 * storable (a line that is not JSON is kept as a string). Idempotent: fingerprinted by source, reason
 * and payload. Pass a transaction to record letters atomically with the append of their batch.
 */
export async function recordDeadLetters(
  db: Database,
  letters: ReadonlyArray<DeadLetterInput>,
): Promise<void> {
  if (letters.length === 0) return;
  await db
    .insertInto('dead_letters')
    .values(
      letters.map((letter) => ({
        fingerprint: createHash('sha256')
          .update(JSON.stringify([letter.source, letter.reason, letter.raw]))
          .digest('hex'),
        event_id: stringField(letter.raw, 'eventId'),
        place_id: stringField(letter.raw, 'placeId'),
        reason: storableText(letter.reason),
        raw: JSON.stringify(letter.raw) ?? 'null',
        source: storableText(letter.source),
      })),
    )
    .onConflict((conflict) => conflict.column('fingerprint').doNothing())
    .execute();
}

/**
 * Dead letters in id order (pending ones unless `includeRedriven`), at most `limit` of them. A reader
 * going through them all pages by id: `afterId` is the last id of the page before.
 */
export async function listDeadLetters(
  db: Database,
  options: { includeRedriven?: boolean; limit?: number; afterId?: number } = {},
): Promise<DeadLetter[]> {
  let query = db
    .selectFrom('dead_letters')
    .selectAll()
    .orderBy('id')
    .limit(options.limit ?? 100);
  if (!options.includeRedriven) query = query.where('redriven_at', 'is', null);
  if (options.afterId !== undefined) query = query.where('id', '>', options.afterId);
  const rows = await query.execute();
  return rows.map(toDeadLetter);
}

export async function getDeadLetters(db: Database, ids: ReadonlyArray<number>): Promise<DeadLetter[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('dead_letters')
    .selectAll()
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
  return rows.map(toDeadLetter);
}

export async function markRedriven(db: Database, ids: ReadonlyArray<number>): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('dead_letters')
    .set({ redriven_at: new Date() })
    .where('id', 'in', [...ids])
    .execute();
}

function toDeadLetter(row: {
  id: number;
  event_id: string | null;
  place_id: string | null;
  reason: string;
  raw: string;
  source: string;
  received_at: Date;
  redriven_at: Date | null;
}): DeadLetter {
  return {
    id: row.id,
    eventId: row.event_id,
    placeId: row.place_id,
    reason: row.reason,
    raw: JSON.parse(row.raw) as unknown,
    source: row.source,
    receivedAt: row.received_at,
    redrivenAt: row.redriven_at,
  };
}
