import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BatchBuilder,
  batchOf,
  itemBytes,
  maxItemBytes,
  oversizedItem,
  serializeItem,
  type BatchBounds,
} from '../src/batching.js';
import { batchItemCount, batchItems, type IngestItem } from '../src/queue.js';

// A job's JSON as the worker may receive it: with the producer's trace context (a 55-character
// traceparent), and a count as long as the bound's (the builder keeps room for the longest).
const jobBytes = (items: IngestItem[], bounds: BatchBounds) =>
  Buffer.byteLength(
    JSON.stringify({
      ...batchOf(items.map(serializeItem)),
      itemCount: bounds.maxItems,
      traceparent: `00-${'0'.repeat(32)}-${'0'.repeat(16)}-01`,
    }),
  );

function batchAll(items: IngestItem[], bounds: BatchBounds): IngestItem[][] {
  const builder = new BatchBuilder(bounds);
  const batches = items.flatMap((item) => builder.add(serializeItem(item)));
  const last = builder.finish();
  // What the worker reads back from each batch's job data.
  return (last === null ? batches : [...batches, last]).map((batch) => batchItems(batchOf(batch)));
}

// Items of very different sizes, some multi-byte, some with characters JSON escapes.
const item = fc
  .record({
    text: fc.string({ unit: fc.constantFrom('a', 'é', '😀', '"', '\n', '\u0001'), maxLength: 50 }),
    line: fc.nat(10_000),
  })
  .map(({ text, line }): IngestItem => ({ raw: { eventId: `ev-${line}`, text }, source: `f:${line}` }));
const bounds = fc.record({
  maxItems: fc.integer({ min: 1, max: 12 }),
  maxBytes: fc.integer({ min: 400, max: 3_000 }),
});

describe('batches bounded by count and by bytes', () => {
  it('closes at whichever bound comes first, keeps every item once in order, and is greedy', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), bounds, (items, limits) => {
        const batches = batchAll(items, limits);
        expect(batches.flat()).toEqual(items);
        batches.forEach((batch, index) => {
          expect(batch.length).toBeGreaterThan(0);
          expect(batch.length).toBeLessThanOrEqual(limits.maxItems);
          expect(jobBytes(batch, limits)).toBeLessThanOrEqual(limits.maxBytes);
          const next = batches[index + 1]?.[0];
          // A batch closed early only because the next item would not have fitted.
          if (next !== undefined && batch.length < limits.maxItems) {
            expect(jobBytes([...batch, next], limits)).toBeGreaterThan(limits.maxBytes);
          }
        });
      }),
      { numRuns: 1_000 },
    );
  });

  it('counts the job exactly: a batch can fill its byte bound to the last byte', () => {
    const items = [0, 1, 2].map((n): IngestItem => ({ raw: { n }, source: 's' }));
    const exact = jobBytes(items, { maxItems: 10, maxBytes: 0 });
    expect(batchAll(items, { maxItems: 10, maxBytes: exact })).toEqual([items]);
    expect(batchAll(items, { maxItems: 10, maxBytes: exact - 1 })).toEqual([
      items.slice(0, 2),
      items.slice(2),
    ]);
  });

  it('refuses an item no job can hold (the producer makes it a rejection first)', () => {
    const builder = new BatchBuilder({ maxItems: 10, maxBytes: 100 });
    expect(() => builder.add(serializeItem({ raw: 'x'.repeat(200), source: 's' }))).toThrow(
      /cannot fit a job/,
    );
  });

  it('carries the items as one text the worker reads back whole, and counts them without reading it', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 30 }), (items) => {
        const data = batchOf(items.map(serializeItem));
        expect(batchItems(data)).toEqual(items);
        expect(batchItemCount(data)).toBe(items.length);
        // A job enqueued by an earlier version carries the items as objects: read the same way.
        expect(batchItems({ items })).toEqual(items);
        expect(batchItemCount({ items })).toBe(items.length);
      }),
    );
  });
});

describe('an event too big for any batch', () => {
  const limits: BatchBounds = { maxItems: 1_000, maxBytes: 65_536 };
  // A random run of characters of every width repeated to 70,000–140,000 characters: as varied where the
  // line is cut, at a fraction of the cost of drawing every character (seconds on a busy machine).
  const big = (units: string[]) =>
    fc
      .tuple(
        fc.string({ unit: fc.constantFrom(...units), minLength: 1, maxLength: 512 }),
        fc.integer({ min: 70_000, max: 140_000 }),
      )
      .map(([run, length]) => run.repeat(Math.ceil(length / run.length)).slice(0, length));

  it('becomes a rejection that fits, keeping the longest start of its line and saying why', () => {
    fc.assert(
      fc.property(big(['a', 'é', '€', '"', '\\', '\u0001']), fc.boolean(), (line, alreadyRejected) => {
        const original: IngestItem = alreadyRejected
          ? { raw: line, source: 'big.ndjson:7', rejection: 'not valid JSON' }
          : { raw: { eventId: 'ev-1', blob: line }, source: 'big.ndjson:7' };
        const size = itemBytes(original);
        const fitted = oversizedItem(original, line, size, limits);
        expect(itemBytes(fitted)).toBeLessThanOrEqual(maxItemBytes(limits));
        const kept = fitted.raw as string;
        expect(line.startsWith(kept)).toBe(true);
        expect(fitted.rejection).toContain(`event of ${size} bytes as queued is over INGEST_BATCH_MAX_BYTES`);
        expect(fitted.rejection).toContain(`the first ${kept.length} characters are kept`);
        if (alreadyRejected) expect(fitted.rejection).toMatch(/^not valid JSON; /);
        // The longest: one character more does not fit.
        const more = kept.length + 1;
        const oneMore: IngestItem = {
          ...fitted,
          raw: line.slice(0, more),
          rejection: fitted.rejection?.replace(`first ${kept.length} characters`, `first ${more} characters`),
        };
        expect(itemBytes(oneMore)).toBeGreaterThan(maxItemBytes(limits));
      }),
      // No shrinking: a counterexample of 100,000 characters would take minutes to shrink.
      { numRuns: 20, endOnFailure: true },
    );
  });
});
