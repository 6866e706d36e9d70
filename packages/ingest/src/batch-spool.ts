import { rmSync } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestJobData } from './queue.js';

/** A segment is closed to new batches once it holds this many bytes (a batch may run past it). */
const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;

type Segment = {
  path: string;
  /** Opened when the segment is started; puts and gets wait for it. */
  file: Promise<FileHandle>;
  end: number;
  /** Batches put here and not yet deleted. */
  live: number;
};

/**
 * The batches of one `ingest --wait` run, kept on disk until their jobs are done, so a batch Redis loses
 * can be enqueued again: serialized batches in temporary segment files and, in memory, only where each
 * one is. Memory stays flat however far the producer runs ahead of the workers, and so does the disk: a
 * segment file is removed once every batch in it is done, so a backfill of tens of millions of events
 * holds about the batches still waiting (the queue's bound), not a copy of its whole input. Everything is
 * deleted on close.
 */
export class BatchSpool {
  private readonly places = new Map<string, { segment: Segment; position: number; length: number }>();
  private current: Segment;
  private segmentsStarted = 0;
  private segmentsRemoved = 0;
  private readonly removals = new Set<Promise<void>>();

  private constructor(
    private readonly dir: string,
    private readonly segmentBytes: number,
  ) {
    this.current = this.startSegment();
  }

  static async open(options: { segmentBytes?: number } = {}): Promise<BatchSpool> {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-spool-'));
    const spool = new BatchSpool(dir, options.segmentBytes ?? DEFAULT_SEGMENT_BYTES);
    await spool.current.file;
    return spool;
  }

  /** Segment files on disk now (tests, and the disk a run holds). */
  get segmentsOnDisk(): number {
    return this.segmentsStarted - this.segmentsRemoved;
  }

  async put(jobId: string, data: IngestJobData): Promise<void> {
    const bytes = Buffer.from(JSON.stringify(data));
    // The place is taken before the write, so concurrent puts never overlap.
    if (this.current.end >= this.segmentBytes) this.rollOver();
    const segment = this.current;
    const position = segment.end;
    segment.end += bytes.length;
    segment.live += 1;
    this.places.set(jobId, { segment, position, length: bytes.length });
    const file = await segment.file;
    await file.write(bytes, 0, bytes.length, position);
  }

  has(jobId: string): boolean {
    return this.places.has(jobId);
  }

  async get(jobId: string): Promise<IngestJobData | undefined> {
    const place = this.places.get(jobId);
    if (!place) return undefined;
    const bytes = Buffer.alloc(place.length);
    await (await place.segment.file).read(bytes, 0, place.length, place.position);
    return JSON.parse(bytes.toString()) as IngestJobData;
  }

  /**
   * The job is done: its batch will not be needed again. A finished segment whose batches are all done
   * is removed (in the background; `close` waits for it).
   */
  delete(jobId: string): void {
    const place = this.places.get(jobId);
    if (!place) return;
    this.places.delete(jobId);
    place.segment.live -= 1;
    if (place.segment.live === 0 && place.segment !== this.current) this.remove(place.segment);
  }

  async close(): Promise<void> {
    await Promise.all(this.removals);
    // Every segment still open: the current one and any with batches not done.
    const open = new Set([this.current, ...[...this.places.values()].map((place) => place.segment)]);
    await Promise.all([...open].map(async (segment) => (await segment.file).close()));
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Removes the files at once, synchronously: for a process that is exiting (an `exit` handler). */
  discard(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private startSegment(): Segment {
    const path = join(this.dir, `batches-${this.segmentsStarted}`);
    this.segmentsStarted += 1;
    return { path, file: open(path, 'w+'), end: 0, live: 0 };
  }

  private rollOver(): void {
    const finished = this.current;
    this.current = this.startSegment();
    if (finished.live === 0) this.remove(finished);
  }

  private remove(segment: Segment): void {
    const removal = (async () => {
      await (await segment.file).close();
      await rm(segment.path, { force: true });
      this.segmentsRemoved += 1;
    })()
      // A temporary file left behind is removed with the directory on close.
      .catch(() => undefined)
      .finally(() => this.removals.delete(removal));
    this.removals.add(removal);
  }
}
