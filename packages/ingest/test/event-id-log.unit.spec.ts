import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventIdLog, partitionOf } from '../src/event-id-log.js';

describe('partitionOf', () => {
  it('sends every repeat of an id to the same file, and similar ids to many files', () => {
    expect(partitionOf('evt-1', 128)).toBe(partitionOf('evt-1', 128));
    const used = new Set(Array.from({ length: 1_000 }, (_, index) => partitionOf(`evt-${index}`, 16)));
    expect(used.size).toBe(16);
    for (const partition of used) expect(partition).toBeGreaterThanOrEqual(0);
    for (const partition of used) expect(partition).toBeLessThan(16);
  });
});

describe('EventIdLog', () => {
  it('counts the distinct ids of more ids than it holds in memory, each id in one file only', async () => {
    const log = await EventIdLog.open(8);
    try {
      // 25,000 ids, of which 5,000 are repeats: more than one flush (10,000) and across every file.
      for (let index = 0; index < 20_000; index += 1) await log.add(`evt-${index}`);
      for (let index = 0; index < 5_000; index += 1) await log.add(`evt-${index * 3}`);
      expect(await log.countDistinct()).toBe(20_000);
      let total = 0;
      const seen = new Set<string>();
      for await (const ids of log.distinctByPartition()) {
        total += ids.size;
        for (const id of ids) seen.add(id);
      }
      // No id in two files: as many ids over the files as distinct ones.
      expect([total, seen.size]).toEqual([20_000, 20_000]);
      // Reading does not consume: more ids may follow, and are counted with the rest.
      await log.add('evt-20000');
      await log.add('evt-0');
      expect(await log.countDistinct()).toBe(20_001);
    } finally {
      await log.close();
    }
  });

  it('counts nothing when empty, and removes its files on close or at once with discard', async () => {
    const before = new Set(await readdir(tmpdir()));
    const empty = await EventIdLog.open(4);
    expect(await empty.countDistinct()).toBe(0);
    const discarded = await EventIdLog.open(4);
    await discarded.add('evt-1');
    const created = (await readdir(tmpdir())).filter(
      (name) => !before.has(name) && name.startsWith('ingest-ids-'),
    );
    expect(created).toHaveLength(2);
    await empty.close();
    discarded.discard();
    for (const name of created) expect(existsSync(join(tmpdir(), name))).toBe(false);
  });
});
