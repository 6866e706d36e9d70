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

  it('removes a segment file once every batch in it is done, whatever the order, and keeps the rest', async () => {
    const before = new Set(await readdir(tmpdir()));
    const ids = Array.from({ length: 9 }, (_, index) => `job-${index}`);
    const size = Buffer.byteLength(JSON.stringify(batch('job-0', 8)));
    // A segment takes new batches until it holds the bound: three batches each here.
    const spool = await BatchSpool.open({ segmentBytes: 2 * size + 1 });
    const created = (await readdir(tmpdir())).find(
      (name) => !before.has(name) && name.startsWith('ingest-spool-'),
    );
    const dir = join(tmpdir(), created ?? '');
    const files = async () => (await readdir(dir)).sort();
    const settled = () => new Promise((resolve) => setTimeout(resolve, 50));
    try {
      for (const id of ids) await spool.put(id, batch(id, 8));
      expect(await files()).toEqual(['batches-0', 'batches-1', 'batches-2']);

      // Out of order; the first segment stays until its last batch is done, and its others read back.
      spool.delete('job-2');
      spool.delete('job-0');
      await settled();
      expect(await files()).toEqual(['batches-0', 'batches-1', 'batches-2']);
      expect(await spool.get('job-1')).toEqual(batch('job-1', 8));
      spool.delete('job-1');
      spool.delete('job-1');
      await settled();
      expect(await files()).toEqual(['batches-1', 'batches-2']);
      expect(spool.segmentsOnDisk).toBe(2);

      // The segment being written stays even when all of its batches are done, until the next one starts.
      for (const id of ids.slice(3)) spool.delete(id);
      await settled();
      expect(await files()).toEqual(['batches-2']);
      await spool.put('job-9', batch('job-9', 8));
      await settled();
      expect(await files()).toEqual(['batches-3']);
      expect(await spool.get('job-9')).toEqual(batch('job-9', 8));
      expect(await spool.get('job-8')).toBeUndefined();
    } finally {
      await spool.close();
    }
    expect(existsSync(dir)).toBe(false);
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
