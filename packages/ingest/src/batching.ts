import type { IngestItem, IngestJobData } from './queue.js';

/**
 * How the producer cuts its input into jobs. A batch closes at whichever bound it reaches first: the
 * number of events (INGEST_BATCH_SIZE) or the bytes of the job's data as BullMQ stores it, JSON
 * (INGEST_BATCH_MAX_BYTES). Counted alone, a thousand events of a megabyte each would make one job of a
 * gigabyte: more than V8 can serialize or Redis accepts.
 */
export type BatchBounds = { maxItems: number; maxBytes: number };

/**
 * A job's data is `{"itemsJson":"[…]","itemCount":N}` (queue.ts), its items' JSON texts separated by
 * commas inside one JSON string, with room for the producer's trace context (a W3C traceparent, always
 * 55 characters) whether tracing is on or not, and for a count as long as the largest batch's.
 */
function envelopeBytes(bounds: BatchBounds): number {
  const envelope: IngestJobData = {
    itemsJson: '[]',
    itemCount: bounds.maxItems,
    traceparent: '0'.repeat(55),
  };
  return Buffer.byteLength(JSON.stringify(envelope));
}

/** An item as its job carries it: its JSON text, serialized once, and the bytes it adds to the job. */
export type SerializedItem = { json: string; bytes: number };

export function serializeItem(item: IngestItem): SerializedItem {
  const json = JSON.stringify(item);
  // Inside the job's JSON the text is a string literal (its quotes and backslashes escaped); less the
  // literal's own two quotes.
  return { json, bytes: Buffer.byteLength(JSON.stringify(json)) - 2 };
}

/** The bytes an item adds to its job's JSON (besides the comma before it). */
export function itemBytes(item: IngestItem): number {
  return serializeItem(item).bytes;
}

/** The largest item a job can hold, alone. */
export function maxItemBytes(bounds: BatchBounds): number {
  return bounds.maxBytes - envelopeBytes(bounds);
}

/** A closed batch: the job data of its items' texts. */
export function batchOf(items: ReadonlyArray<SerializedItem>): IngestJobData {
  return { itemsJson: `[${items.map((item) => item.json).join(',')}]`, itemCount: items.length };
}

/**
 * Collects items in input order into batches within both bounds. `add` takes a serialized item (its
 * `bytes` at most `maxItemBytes`) and returns the batches it closed (none, one, or with one item per
 * batch, two); `finish` returns the last, partial one.
 */
export class BatchBuilder {
  /** The largest item a job can hold, computed once. */
  readonly maxItemBytes: number;
  private items: SerializedItem[] = [];
  private readonly envelope: number;
  private bytes: number;

  constructor(private readonly bounds: BatchBounds) {
    this.envelope = envelopeBytes(bounds);
    this.maxItemBytes = maxItemBytes(bounds);
    this.bytes = this.envelope;
  }

  add(item: SerializedItem): SerializedItem[][] {
    const size = item.bytes;
    if (size > this.maxItemBytes) {
      throw new Error(`an item of ${size} bytes cannot fit a job of at most ${this.bounds.maxBytes} bytes`);
    }
    const closed: SerializedItem[][] = [];
    // After the first item, each adds a comma too.
    if (this.items.length > 0 && this.bytes + 1 + size > this.bounds.maxBytes) closed.push(this.take());
    this.bytes += this.items.length === 0 ? size : 1 + size;
    this.items.push(item);
    if (this.items.length >= this.bounds.maxItems) closed.push(this.take());
    return closed;
  }

  finish(): SerializedItem[] | null {
    return this.items.length === 0 ? null : this.take();
  }

  private take(): SerializedItem[] {
    const batch = this.items;
    this.items = [];
    this.bytes = this.envelope;
    return batch;
  }
}

/**
 * An item too big for any job, made a rejection that fits one, as an over-long line is: it keeps the
 * longest start of its line that fits, and its reason says so (after the item's own rejection, if it
 * had one). The length is found by halving: about twenty serializations of at most a line, for a line
 * this rare.
 */
export function oversizedItem(item: IngestItem, line: string, size: number, bounds: BatchBounds): IngestItem {
  const limit = maxItemBytes(bounds);
  const rejectionFor = (kept: number) =>
    `${item.rejection === undefined ? '' : `${item.rejection}; `}event of ${size} bytes as queued is over ` +
    `INGEST_BATCH_MAX_BYTES (${bounds.maxBytes} bytes for a whole batch): the first ${kept} characters are kept`;
  const candidate = (kept: number): IngestItem => ({
    raw: line.slice(0, kept),
    source: item.source,
    rejection: rejectionFor(kept),
  });
  if (itemBytes(candidate(0)) > limit) {
    throw new Error(
      `INGEST_BATCH_MAX_BYTES (${bounds.maxBytes}) cannot hold even a rejection of ${item.source}`,
    );
  }
  // The longest prefix that fits: fits(low) holds throughout, fits(high + 1) does not.
  let low = 0;
  let high = line.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (itemBytes(candidate(middle)) <= limit) low = middle;
    else high = middle - 1;
  }
  // No half surrogate pair at the end: JSON writes a lone one as a 6-byte escape, so whenever such a
  // prefix fits, the one a character longer (the whole pair, 4 bytes) fits too.
  return candidate(low);
}
