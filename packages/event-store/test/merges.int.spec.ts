import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@directory/database';
import { toSearchDocument, type MergeLink, type PlaceProjection } from '@directory/domain';
import { SITE_ORIGIN, createTestDatabase, placeState, type TestDatabase } from '@directory/testing';
import { readMergeForwards } from '../src/merges.repository.js';
import { replacePlaceStates, savePlaceStates } from '../src/places.repository.js';

const AT = '2026-02-01T00:00:00.000Z';

/** A place's row as the worker saves it: merged away into `into` (a tombstone), or served. */
function row(placeId: string, version: number, into?: string): PlaceProjection {
  const served = placeState({ id: placeId, name: `Praxis ${placeId}`, version });
  const merge: MergeLink | null = into === undefined ? null : { placeId, mergedInto: into, mergedAt: AT };
  const state = merge === null ? served : { ...served, mergedInto: merge.mergedInto, mergedAt: AT };
  return {
    placeId,
    stateVersion: version,
    document: toSearchDocument(state, { siteOrigin: SITE_ORIGIN }),
    ...(merge === null ? {} : { merge }),
  };
}

describe('merges as the store keeps and follows them (migration 0016)', () => {
  let database: TestDatabase;
  let db: Database;
  const survivorOf = async (ids: string[]) =>
    Object.fromEntries(
      [...(await readMergeForwards(db, ids))].map(([id, forward]) => [id, forward.mergedInto]),
    );

  beforeAll(async () => {
    database = await createTestDatabase('store-merges');
    db = database.db;
  });
  afterAll(() => database.drop());

  it('follows chains to their end in one query, and gives loops and unmerged ids no survivor', async () => {
    await savePlaceStates(db, [
      row('s-c', 1),
      row('s-b', 1, 's-c'),
      row('s-a', 1, 's-b'),
      row('s-x', 1, 's-y'),
      row('s-y', 1, 's-z'),
      row('s-z', 1, 's-x'),
      row('s-into-loop', 1, 's-x'),
      row('s-to-unknown', 1, 's-nowhere'),
    ]);
    expect(
      await survivorOf(['s-a', 's-b', 's-c', 's-x', 's-y', 's-z', 's-into-loop', 's-to-unknown', 'nope']),
    ).toEqual({
      's-a': 's-c',
      's-b': 's-c',
      's-to-unknown': 's-nowhere',
    });
    expect((await readMergeForwards(db, ['s-a'])).get('s-a')).toEqual({
      placeId: 's-a',
      mergedInto: 's-c',
      mergedAt: AT,
    });
    expect(await readMergeForwards(db, [])).toEqual(new Map());
  });

  it('moves a merge only forward: a stale fold cannot bring an old merge back, a newer one clears it', async () => {
    await savePlaceStates(db, [row('s-m', 3, 's-c')]);
    await savePlaceStates(db, [row('s-m', 2)]);
    expect(await survivorOf(['s-m'])).toEqual({ 's-m': 's-c' });
    await savePlaceStates(db, [row('s-m', 4)]);
    expect(await survivorOf(['s-m'])).toEqual({});
    await savePlaceStates(db, [row('s-m', 3, 's-c')]);
    expect(await survivorOf(['s-m'])).toEqual({});
  });

  it('lets a replay at the same version rewrite a merge its fold now sees differently', async () => {
    await savePlaceStates(db, [row('s-r', 5)]);
    await replacePlaceStates(db, [
      { ...row('s-r', 5, 's-c'), documentJson: JSON.stringify(row('s-r', 5, 's-c').document) },
    ]);
    expect(await survivorOf(['s-r'])).toEqual({ 's-r': 's-c' });
  });
});
