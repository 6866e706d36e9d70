import { describe, expect, it } from 'vitest';
import { syncMirror, type MirrorStore } from '../src/mirror.js';
import type { ChangesPage, ChangesParams, Doctor } from '../src/types.js';

const record = (id: string, name: string) => ({ id, name }) as unknown as Doctor;

/** A feed of fixed pages: page n is read with since = `c<n>` (none for the first) and answers cursor `c<n+1>`. */
function feed(pages: Array<ChangesPage['changes']>) {
  const asked: Array<string | undefined> = [];
  return {
    asked,
    async *changePages(params: ChangesParams): AsyncGenerator<ChangesPage> {
      let index = params.since === undefined ? 0 : Number(params.since.slice(1));
      for (;;) {
        asked.push(params.since === undefined && index === 0 ? undefined : `c${index}`);
        const changes = pages[index] ?? [];
        const hasMore = index + 1 < pages.length;
        yield await Promise.resolve({
          changes,
          page: { count: changes.length, hasMore, nextCursor: `c${Math.min(index + 1, pages.length)}` },
        });
        if (!hasMore) return;
        index += 1;
      }
    },
  };
}

function memoryStore(failOn?: string) {
  const records = new Map<string, Doctor>();
  const cursors: string[] = [];
  const store: MirrorStore = {
    upsert: (doctor) => {
      if (doctor.id === failOn) throw new Error(`store refused ${doctor.id}`);
      records.set(doctor.id, doctor);
    },
    remove: (id) => void records.delete(id),
    saveCursor: (cursor) => void cursors.push(cursor),
  };
  return { records, cursors, store };
}

const PAGES: Array<ChangesPage['changes']> = [
  [
    { id: 'a', change: 'upsert', doctor: record('a', 'A') },
    { id: 'b', change: 'upsert', doctor: record('b', 'B') },
  ],
  [
    { id: 'c', change: 'upsert', doctor: record('c', 'C') },
    { id: 'a', change: 'delete', doctor: null },
  ],
  [
    { id: 'b', change: 'upsert', doctor: record('b', 'B2') },
    { id: 'never-held', change: 'delete', doctor: null },
  ],
];

describe('syncMirror', () => {
  it('applies upserts and deletes in feed order and saves the cursor after each page', async () => {
    const { records, cursors, store } = memoryStore();
    const result = await syncMirror(feed(PAGES), { country: 'de', store });
    expect([...records.entries()]).toEqual([
      ['b', record('b', 'B2')],
      ['c', record('c', 'C')],
    ]);
    expect(cursors).toEqual(['c1', 'c2', 'c3']);
    expect(result).toEqual({ cursor: 'c3', upserts: 4, removals: 2, pages: 3 });
  });

  it('asks for merges only when the store takes them, and re-keys a merged-away record (API 1.4)', async () => {
    const pages: Array<ChangesPage['changes']> = [
      [
        { id: 'a', change: 'upsert', doctor: record('a', 'A') },
        { id: 'b', change: 'upsert', doctor: record('b', 'B') },
      ],
      [{ id: 'a', change: 'merged', doctor: null, mergedInto: 'b' }],
    ];
    const asked: ChangesParams[] = [];
    const reader = {
      changePages(params: ChangesParams) {
        asked.push(params);
        return feed(pages).changePages(params);
      },
    };
    const { records, store } = memoryStore();
    const forwards = new Map<string, string>();
    const result = await syncMirror(reader, {
      country: 'de',
      store: { ...store, merged: (id, into) => void forwards.set(id, into) },
    });
    expect(asked[0]?.merges).toBe(true);
    expect([...records.keys()]).toEqual(['b']);
    expect(Object.fromEntries(forwards)).toEqual({ a: 'b' });
    expect(result).toMatchObject({ upserts: 2, removals: 1 });
    // A store without `merged` reads the feed as before.
    await syncMirror(reader, { country: 'de', store: memoryStore().store });
    expect(asked[1]).not.toHaveProperty('merges');
  });

  it('resumes from the last page it completed when the store fails midway, and ends with the same mirror', async () => {
    const failing = memoryStore('c');
    await expect(syncMirror(feed(PAGES), { country: 'de', store: failing.store })).rejects.toThrow(
      'store refused c',
    );
    expect(failing.cursors).toEqual(['c1']);

    const reader = feed(PAGES);
    const resumed = memoryStore();
    for (const [id, doctor] of failing.records) resumed.records.set(id, doctor);
    const result = await syncMirror(reader, {
      country: 'de',
      store: resumed.store,
      cursor: failing.cursors.at(-1),
    });
    expect(reader.asked[0]).toBe('c1');
    expect(result.cursor).toBe('c3');
    const fresh = memoryStore();
    await syncMirror(feed(PAGES), { country: 'de', store: fresh.store });
    expect(resumed.records).toEqual(fresh.records);
  });
});
