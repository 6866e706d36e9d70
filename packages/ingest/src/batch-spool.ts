import { rmSync } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestJobData } from './queue.js';

/**
 * The batches of one `ingest --wait` run, kept on disk until their jobs are done, so a batch Redis loses
 * can be enqueued again: a temporary file of serialized batches and, in memory, only where each one is.
 * Memory stays flat however far the producer runs ahead of the workers; the file is deleted on close.
 */
export class BatchSpool {
  private readonly places = new Map<string, { position: number; length: number }>();
  private end = 0;

  private constructor(
    private readonly dir: string,
    private readonly file: FileHandle,
  ) {}

  static async open(): Promise<BatchSpool> {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-spool-'));
    return new BatchSpool(dir, await open(join(dir, 'batches'), 'w+'));
  }

  async put(jobId: string, data: IngestJobData): Promise<void> {
    const bytes = Buffer.from(JSON.stringify(data));
    // The place is taken before the write, so concurrent puts never overlap.
    const position = this.end;
    this.end += bytes.length;
    this.places.set(jobId, { position, length: bytes.length });
    await this.file.write(bytes, 0, bytes.length, position);
  }

  has(jobId: string): boolean {
    return this.places.has(jobId);
  }

  async get(jobId: string): Promise<IngestJobData | undefined> {
    const place = this.places.get(jobId);
    if (!place) return undefined;
    const bytes = Buffer.alloc(place.length);
    await this.file.read(bytes, 0, place.length, place.position);
    return JSON.parse(bytes.toString()) as IngestJobData;
  }

  /** The job is done: its batch will not be needed again (the file is not compacted; it is temporary). */
  delete(jobId: string): void {
    this.places.delete(jobId);
  }

  async close(): Promise<void> {
    await this.file.close();
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Removes the file at once, synchronously: for a process that is exiting (an `exit` handler). */
  discard(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
