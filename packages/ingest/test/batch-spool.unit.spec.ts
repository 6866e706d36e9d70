import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchSpool } from '../src/batch-spool.js';
import type { IngestJobData } from '../src/queue.js';

function batch(label: string, size: number): IngestJobData {
  return {
    items: Array.from({ length: size }, (_, index) => ({
      raw: { eventId: `${label}-${index}`, name: `Praxis Müller ${label}` },
      source: `${label}.ndjson:${index + 1}`,
    })),
  };
}

describe('BatchSpool', () => {
  it('gives back each batch as put, also when put concurrently, until it is deleted', async () => {
    const spool = await BatchSpool.open();
    try {
      const batches = { a: batch('a', 3), b: batch('b', 200), c: batch('c', 1) };
      await Promise.all(Object.entries(batches).map(([jobId, data]) => spool.put(jobId, data)));
      expect(await spool.get('b')).toEqual(batches.b);
      expect(await spool.get('a')).toEqual(batches.a);
      expect(await spool.get('c')).toEqual(batches.c);
      spool.delete('b');
      expect(await spool.get('b')).toBeUndefined();
      expect(await spool.get('unknown')).toBeUndefined();
      expect(await spool.get('c')).toEqual(batches.c);
      expect([spool.has('a'), spool.has('b')]).toEqual([true, false]);
    } finally {
      await spool.close();
    }
  });

  it('discards its file at once, synchronously (for an exiting process)', async () => {
    const before = new Set(await readdir(tmpdir()));
    const spool = await BatchSpool.open();
    await spool.put('a', batch('a', 2));
    const created = (await readdir(tmpdir())).filter(
      (name) => !before.has(name) && name.startsWith('ingest-spool-'),
    );
    expect(created).toHaveLength(1);
    spool.discard();
    expect(existsSync(join(tmpdir(), created[0] ?? ''))).toBe(false);
  });
});
