import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@directory/database';
import { storedMergeOf, toSearchDocument, type DoctorRef, type PlaceProjection } from '@directory/domain';
import { SITE_ORIGIN, createTestDatabase, placeState, type TestDatabase } from '@directory/testing';
import { readDoctorForwards, readMergeForwards } from '../src/merges.repository.js';
import { replacePlaceStates, savePlaceStates } from '../src/places.repository.js';

const AT = '2026-02-01T00:00:00.000Z';

/** A place's row as the worker saves it: merged away into `into` (a tombstone), or served. */
function row(
  placeId: string,
  version: number,
  into?: string,
  at = AT,
  profileSlug?: string,
): PlaceProjection {
  const served = placeState({
    id: placeId,
    name: `Praxis ${placeId}`,
    version,
    ...(profileSlug === undefined ? {} : { profileSlug }),
  });
  const state = into === undefined ? served : { ...served, mergedInto: into, mergedAt: at };
  const merge = storedMergeOf(state);
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

    // A row merged by an older server kept no page: the replay after the upgrade fills it in.
    const old = row('s-p', 5, 's-c');
    await savePlaceStates(db, [{ ...old, merge: { ...old.merge!, profilePage: null } }]);
    const sPage = new Map<string, DoctorRef>([
      ['page', { profile: { country: 'de', citySlug: 'berlin', profileSlug: 's-p' } }],
    ]);
    expect((await readDoctorForwards(db, sPage)).size).toBe(0);
    await replacePlaceStates(db, [{ ...old, documentJson: JSON.stringify(old.document) }]);
    expect((await readDoctorForwards(db, sPage)).get('page')?.mergedInto).toBe('s-c');
  });

  it('forwards the profile page of a merged-away record (any language) to the survivor, and ids as before', async () => {
    await savePlaceStates(db, [
      row('p-survivor', 1),
      row('p-old', 1, 'p-survivor', AT, 'praxis-gemeinsam'),
      // The same page merged away twice (two crawls of one practice): the latest merge answers it.
      row('p-older', 1, 's-c', '2026-01-01T00:00:00.000Z', 'praxis-gemeinsam'),
      row('p-served', 1),
    ]);
    const page = (profileSlug: string): DoctorRef => ({
      profile: { country: 'de' as const, citySlug: 'berlin', profileSlug },
    });
    const forwards = await readDoctorForwards(
      db,
      new Map<string, DoctorRef>([
        ['https://site.example/de/aerzte/de/berlin/praxis-gemeinsam', page('praxis-gemeinsam')],
        ['https://site.example/en/doctors/de/berlin/praxis-gemeinsam', page('praxis-gemeinsam')],
        ['https://site.example/en/doctors/de/berlin/p-served', page('p-served')],
        ['p-old', { placeId: 'p-old' }],
        ['p-served', { placeId: 'p-served' }],
      ]),
    );
    expect(Object.fromEntries([...forwards].map(([entry, forward]) => [entry, forward]))).toEqual({
      'https://site.example/de/aerzte/de/berlin/praxis-gemeinsam': {
        placeId: 'p-old',
        mergedInto: 'p-survivor',
        mergedAt: AT,
      },
      'https://site.example/en/doctors/de/berlin/praxis-gemeinsam': {
        placeId: 'p-old',
        mergedInto: 'p-survivor',
        mergedAt: AT,
      },
      'p-old': { placeId: 'p-old', mergedInto: 'p-survivor', mergedAt: AT },
    });
    // An unmerge (a newer fold without the merge) takes the page back with the id.
    await savePlaceStates(db, [row('p-old', 2), row('p-older', 2)]);
    expect(await readDoctorForwards(db, new Map([['page', page('praxis-gemeinsam')]]))).toEqual(new Map());
  });
});
