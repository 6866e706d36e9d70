import type { SearchClient } from './client.js';

/**
 * What the index has seen of the store, kept beside it in a small index of its own (`<alias>-store-marks`),
 * so a store that went back in time (a promoted standby that missed committed events) is noticed instead
 * of the index silently keeping records and versions the store no longer has:
 *
 * - `high-water`: the highest event position the projection has written, as the document's external
 *   version, so Elasticsearch itself keeps the maximum whatever order concurrent workers write in;
 * - `store-behind-index`: the first finding that the store is behind (a write found the index holding a
 *   higher version of a place than the store has, see `placesAheadOfStore`; or a look found the
 *   high-water mark above the store's newest position), kept until the repair: once the new primary has
 *   stored more events its positions pass the mark, and the disagreement must not be forgotten then.
 *
 * Both say the same: the index is not a function of the store any more. Only a rebuild from the store
 * (`npm run reindex -- --replay`) repairs that, and it starts the marks again (`resetStoreMarks`).
 */
export function storeMarksIndexName(alias: string): string {
  return `${alias}-store-marks`;
}

export const HIGH_WATER_ID = 'high-water';
const BEHIND_ID = 'store-behind-index';

/** The command that makes the index a pure function of the store again. */
export const STORE_BEHIND_REPAIR = 'npm run reindex -- --replay';

/** A place the index holds at a higher version than the store has. */
export type PlaceAheadOfStore = { placeId: string; indexVersion: number; storeVersion: number };

/** Kept once found, so a store that later moves past the high-water mark stays flagged until repaired. */
export type BehindMark = { reason: string; detectedAt: string };

export type StoreMarks = {
  /** Highest event position the projection wrote (0: none recorded). */
  highWater: number;
  /** The first finding that the store is behind the index, when there was one. */
  behind: BehindMark | null;
};

/**
 * Of the places whose write the index refused as stale (409) while holding `indexVersion`, those the
 * store has at a lower version now (`storeVersions`, read after the write). A concurrent worker that
 * folded a newer version legitimately leaves a higher one in the index, but then the store has it too.
 */
export function placesAheadOfStore(
  conflicts: ReadonlyArray<{ placeId: string; indexVersion: number }>,
  storeVersions: ReadonlyMap<string, number>,
): PlaceAheadOfStore[] {
  return conflicts.flatMap(({ placeId, indexVersion }) => {
    const storeVersion = storeVersions.get(placeId) ?? 0;
    return indexVersion > storeVersion ? [{ placeId, indexVersion, storeVersion }] : [];
  });
}

export function placeAheadReason({ placeId, indexVersion, storeVersion }: PlaceAheadOfStore): string {
  return `the store went back in time: the index holds ${placeId} at version ${indexVersion}, the store at ${storeVersion}`;
}

export type StoreBehind = {
  /** For an operator: what was found, when, and the repair. */
  message: string;
  /** Found now from the high-water mark, not yet kept in the marks (`flagStoreBehindIndex`). */
  reason: string;
  newlyFound: boolean;
};

/**
 * Whether the index reflects store history the store no longer has, or null: a finding kept in the marks
 * (a write found a place ahead, or an earlier look found the mark ahead), or the high-water mark above
 * the store's newest position now.
 */
export function storeBehindIndex(marks: StoreMarks, storeNewestPosition: number): StoreBehind | null {
  // The repair comes first: readiness reasons are cut at 200 characters.
  const repair = `store behind the index, run ${STORE_BEHIND_REPAIR}`;
  if (marks.behind) {
    const { reason, detectedAt } = marks.behind;
    return { message: `${repair}: ${reason} (found ${detectedAt})`, reason, newlyFound: false };
  }
  if (marks.highWater <= storeNewestPosition) return null;
  const reason =
    `the store went back in time: the index reflects events up to position ${marks.highWater}, the ` +
    `store's newest is ${storeNewestPosition} (a failover to a standby that missed commits, or a ` +
    `restored backup?)`;
  return { message: `${repair}: ${reason}`, reason, newlyFound: true };
}

/** The two bulk lines that raise the high-water mark to `position` (a lower one is refused, 409). */
export function highWaterBulkLines(alias: string, position: number): [string, string] {
  return [
    JSON.stringify({
      index: {
        _index: storeMarksIndexName(alias),
        _id: HIGH_WATER_ID,
        version: position,
        version_type: 'external',
      },
    }),
    '{}',
  ];
}

const ensured = new Set<string>();

/** Creates the marks index once per process (a copy on every node, up to three, like the reindex lock). */
export async function ensureStoreMarksIndex(client: SearchClient, alias: string): Promise<void> {
  const index = storeMarksIndexName(alias);
  if (ensured.has(index)) return;
  await client.indices.create(
    {
      index,
      settings: { number_of_shards: 1, auto_expand_replicas: '0-2' },
      mappings: { dynamic: false, properties: {} },
    },
    { ignore: [400] },
  );
  ensured.add(index);
}

export async function readStoreMarks(client: SearchClient, alias: string): Promise<StoreMarks> {
  const index = storeMarksIndexName(alias);
  const [highWater, behind] = await Promise.all([
    client.get({ index, id: HIGH_WATER_ID }, { ignore: [404] }),
    client.get<BehindMark>({ index, id: BEHIND_ID }, { ignore: [404] }),
  ]);
  return {
    highWater: highWater.found ? (highWater._version ?? 0) : 0,
    behind: behind.found && behind._source ? behind._source : null,
  };
}

/** Keeps the first finding that the store is behind the index (later ones leave it: `create`). */
export async function flagStoreBehindIndex(
  client: SearchClient,
  alias: string,
  reason: string,
  now: Date,
): Promise<void> {
  await ensureStoreMarksIndex(client, alias);
  const mark: BehindMark = { reason, detectedAt: now.toISOString() };
  await client.create(
    { index: storeMarksIndexName(alias), id: BEHIND_ID, document: mark },
    { ignore: [409] },
  );
}

/**
 * After a rebuild from the store: the marks start again at the store's position the rebuild read from
 * (deleting the index is the only way to lower an external version).
 */
export async function resetStoreMarks(client: SearchClient, alias: string, position: number): Promise<void> {
  const index = storeMarksIndexName(alias);
  await client.indices.delete({ index }, { ignore: [404] });
  ensured.delete(index);
  await ensureStoreMarksIndex(client, alias);
  if (position > 0) {
    await client.index(
      { index, id: HIGH_WATER_ID, document: {}, version: position, version_type: 'external' },
      { ignore: [409] },
    );
  }
}
