import { rmSync } from 'node:fs';
import { mkdtemp, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// 128 files: an input of 50 million events gives about 400,000 ids per file, read one file at a time.
const DEFAULT_PARTITIONS = 128;
// Ids held in memory before they are written out: a few hundred kilobytes.
const FLUSH_AFTER_IDS = 10_000;

/**
 * The file an event id goes to: FNV-1a over its characters, so every repeat of an id lands in the same
 * file and similar ids spread evenly.
 */
export function partitionOf(eventId: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < eventId.length; index += 1) {
    hash ^= eventId.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}

/**
 * The event ids of one input, kept on disk instead of in a Set: a backfill of tens of millions of events
 * would hold gigabytes of ids. Each id goes to one of several temporary files by its hash, so the
 * distinct ids of the whole input are the distinct ids of each file, and one file at a time fits in
 * memory. Event ids are single-line text (A-Z a-z 0-9 . _ : -), one a line. The files are deleted on close.
 */
export class EventIdLog {
  private buffered: string[][];
  private bufferedCount = 0;
  private readonly ends: number[];

  private constructor(
    private readonly dir: string,
    private readonly files: FileHandle[],
  ) {
    this.buffered = files.map(() => []);
    this.ends = files.map(() => 0);
  }

  static async open(partitions = DEFAULT_PARTITIONS): Promise<EventIdLog> {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-ids-'));
    const files = await Promise.all(
      Array.from({ length: partitions }, (_, partition) => open(join(dir, String(partition)), 'w+')),
    );
    return new EventIdLog(dir, files);
  }

  async add(eventId: string): Promise<void> {
    this.buffered[partitionOf(eventId, this.files.length)]?.push(eventId);
    this.bufferedCount += 1;
    if (this.bufferedCount >= FLUSH_AFTER_IDS) await this.flush();
  }

  /** The distinct ids, one file's worth at a time (no id is in two of them). */
  async *distinctByPartition(): AsyncGenerator<ReadonlySet<string>> {
    await this.flush();
    for (let partition = 0; partition < this.files.length; partition += 1) {
      if (this.ends[partition] === 0) continue;
      const text = await readFile(join(this.dir, String(partition)), 'utf8');
      const ids = new Set(text.split('\n'));
      ids.delete('');
      yield ids;
    }
  }

  /** How many distinct ids were added. */
  async countDistinct(): Promise<number> {
    let count = 0;
    for await (const ids of this.distinctByPartition()) count += ids.size;
    return count;
  }

  async close(): Promise<void> {
    await Promise.all(this.files.map((file) => file.close()));
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Removes the files at once, synchronously: for a process that is exiting (an `exit` handler). */
  discard(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async flush(): Promise<void> {
    const writes = this.buffered.flatMap((ids, partition) => {
      const file = this.files[partition];
      if (ids.length === 0 || file === undefined) return [];
      const bytes = Buffer.from(`${ids.join('\n')}\n`);
      // The place is taken before the write, as in the batch spool.
      const position = this.ends[partition] ?? 0;
      this.ends[partition] = position + bytes.length;
      return [file.write(bytes, 0, bytes.length, position)];
    });
    this.buffered = this.files.map(() => []);
    this.bufferedCount = 0;
    await Promise.all(writes);
  }
}
