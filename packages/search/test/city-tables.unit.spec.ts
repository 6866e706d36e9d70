import { cityTableOf, type CityTable, type CountryCode } from '@directory/domain';
import { describe, expect, it } from 'vitest';
import { cityTableAction, createCityTables } from '../src/city-tables.js';
import type { IndexState } from '../src/index-change-watch.js';
import { SETTLED_MAX_AGE_MS } from '../src/search-request-cache.js';

const REFRESH_MS = 30_000;

describe('cityTableAction', () => {
  const stamp = { readAt: 1_000, generation: 7 };
  const settled = (generation: number): IndexState => ({ generation, settled: true });
  const at = (age: number, index?: IndexState, refreshMs = REFRESH_MS) =>
    cityTableAction(stamp, stamp.readAt + age, refreshMs, index);

  it('waits for the first read', () => {
    expect(cityTableAction(undefined, 0, REFRESH_MS, settled(7))).toBe('read-and-wait');
  });

  it('uses a table younger than the refresh interval whatever the index did', () => {
    expect(at(REFRESH_MS, settled(8))).toBe('use');
    expect(at(0)).toBe('use');
  });

  it('reads again in the background while the index changes, and waits once the table is twice as old', () => {
    expect(at(REFRESH_MS + 1, settled(8))).toBe('use-and-read-again');
    expect(at(2 * REFRESH_MS, { generation: 7, settled: false })).toBe('use-and-read-again');
    expect(at(2 * REFRESH_MS + 1, settled(8))).toBe('read-and-wait');
    expect(at(2 * REFRESH_MS + 1)).toBe('read-and-wait');
  });

  it('keeps a table while the watch sees no change, up to the settled bound', () => {
    expect(at(SETTLED_MAX_AGE_MS, settled(7))).toBe('use');
    expect(at(SETTLED_MAX_AGE_MS + 1, settled(7), 0)).toBe('use-and-read-again');
    // Read while the index was not settled: nothing vouches for it.
    expect(cityTableAction({ readAt: 0, generation: null }, 1, 0, settled(7))).toBe('read-and-wait');
  });

  it('with no refresh interval, reads again at every possible change', () => {
    expect(at(1, settled(8), 0)).toBe('read-and-wait');
    expect(at(1, undefined, 0)).toBe('read-and-wait');
    expect(at(1, settled(7), 0)).toBe('use');
  });
});

describe('createCityTables', () => {
  function harness(waitMs?: number) {
    const clock = { now: 0 };
    const index: IndexState = { generation: 1, settled: true };
    const reads: Array<{
      country: CountryCode;
      resolve: (table: CityTable) => void;
      reject: (error: Error) => void;
    }> = [];
    const tables = createCityTables(
      (country) =>
        new Promise<CityTable>((resolve, reject) => {
          reads.push({ country, resolve, reject });
        }),
      {
        refreshMs: REFRESH_MS,
        indexState: () => index,
        now: () => clock.now,
        ...(waitMs === undefined ? {} : { waitMs }),
      },
    );
    const tableNamed = (slug: string) => cityTableOf([{ slug, name: null, count: 1 }]);
    return { clock, index, reads, tables, tableNamed };
  }

  it('reads each dataset once for keystrokes that arrive together, and serves the old table while reading again', async () => {
    const { clock, index, reads, tables, tableNamed } = harness();
    const first = [tables.table('de'), tables.table('de'), tables.table('es')];
    expect(reads.map(({ country }) => country)).toEqual(['de', 'es']);
    reads[0]?.resolve(tableNamed('berlin'));
    reads[1]?.resolve(tableNamed('madrid'));
    const [de, again, es] = await Promise.all(first);
    expect(de?.slugs).toEqual(['berlin']);
    expect(again).toBe(de);
    expect(es?.slugs).toEqual(['madrid']);

    index.generation = 2;
    clock.now = REFRESH_MS + 1;
    expect(await tables.table('de')).toBe(de);
    expect(await tables.table('de')).toBe(de);
    expect(reads).toHaveLength(3);
    reads[2]?.resolve(tableNamed('bonn'));
    await Promise.resolve();
    expect((await tables.table('de'))?.slugs).toEqual(['bonn']);
  });

  it('keeps the old table when a background read fails, and lets a waiting keystroke see the failure', async () => {
    const { clock, index, reads, tables, tableNamed } = harness();
    const first = tables.table('de');
    reads[0]?.resolve(tableNamed('berlin'));
    const de = await first;
    index.generation = 2;
    clock.now = REFRESH_MS + 1;
    expect(await tables.table('de')).toBe(de);
    reads[1]?.reject(new Error('cluster down'));
    await new Promise((resolve) => setImmediate(resolve));
    clock.now = 2 * REFRESH_MS + 2;
    const waiting = tables.table('de');
    expect(reads).toHaveLength(3);
    reads[2]?.reject(new Error('cluster down'));
    await expect(waiting).rejects.toThrow('cluster down');
  });

  it('answers without a table when the read it waits for outlasts waitMs or fails, and keeps reading', async () => {
    const { reads, tables, tableNamed } = harness(20);
    expect(await tables.table('de')).toBeUndefined();
    // The read goes on: the next keystroke joins it, and its table is kept once it ends.
    const joined = tables.table('de');
    expect(reads).toHaveLength(1);
    reads[0]?.resolve(tableNamed('berlin'));
    expect((await joined)?.slugs).toEqual(['berlin']);
    expect((await tables.table('de'))?.slugs).toEqual(['berlin']);

    const failing = tables.table('es');
    reads[1]?.reject(new Error('cluster down'));
    expect(await failing).toBeUndefined();
  });
});
