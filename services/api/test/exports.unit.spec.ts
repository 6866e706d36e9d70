import { describe, expect, it } from 'vitest';
import type { Doctor, ListedPlace } from '@directory/domain';
import { acceptsGzip } from '../src/routes/exports/accept-encoding.js';
import { exportBody, type UnitCharge } from '../src/routes/exports/export-body.js';
import {
  createProcessSlots,
  exportEndReason,
  exportStalled,
  retryAfterSeconds,
} from '../src/routes/exports/export-limits.js';

describe('Accept-Encoding', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, GZIP;q=0.5', true],
    ['x-gzip', true],
    ['*', true],
    ['*;q=0.1, br', true],
    [['deflate', 'gzip'], true],
    [undefined, false],
    ['', false],
    ['identity', false],
    ['br, deflate', false],
    ['gzip;q=0', false],
    ['gzip;q=0.000', false],
    ['*, gzip;q=0', false],
    ['gzip;q=nonsense', false],
    ['*;q=0', false],
  ] as Array<[string | string[] | undefined, boolean]>)('%j → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it('reads a very long header in linear time', () => {
    const header = `${'a;q=0.5,'.repeat(100_000)}gzip`;
    const started = performance.now();
    expect(acceptsGzip(header)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

const place = (id: string): ListedPlace => ({ placeId: id, doctor: { id, name: `Praxis ${id}` } as Doctor });

/** Pages of places, noting whether the consumer stopped them (the store's transaction ends then). */
function pagesOf(pageSizes: number[]) {
  const state = { finished: false, next: 0 };
  async function* pages(): AsyncGenerator<ListedPlace[]> {
    try {
      for (const size of pageSizes) {
        // As the store does: each page is read before it is yielded.
        await Promise.resolve();
        yield Array.from({ length: size }, () => place(`p${String((state.next += 1)).padStart(5, '0')}`));
      }
    } finally {
      state.finished = true;
    }
  }
  return { pages: pages(), state };
}

async function bodyOf(pageSizes: number[], charges: UnitCharge[], endAfterPage?: number) {
  const { pages, state } = pagesOf(pageSizes);
  let pagesTaken = 0;
  let asked = 0;
  const chunks: string[] = [];
  for await (const chunk of exportBody({
    country: 'de',
    changesCursor: 'cursor',
    pages,
    writeRecord: (doctor) => JSON.stringify({ id: doctor.id }),
    chargeUnit: () => Promise.resolve(charges[asked++] ?? { ok: true }),
    endReason: () => ((pagesTaken += 1) === endAfterPage ? 'the longest duration' : undefined),
  })) {
    chunks.push(chunk);
  }
  const lines = chunks.join('').split('\n');
  expect(lines.pop()).toBe('');
  const trailer = JSON.parse(lines.pop() ?? 'null') as { export: Record<string, unknown> };
  return { lines, trailer: trailer.export, asked, finished: state.finished };
}

describe('export body', () => {
  it('writes every record, one per line, then a complete trailer', async () => {
    const body = await bodyOf([1000, 1000, 5], []);
    expect(body.lines).toHaveLength(2005);
    expect(JSON.parse(body.lines[0] ?? '')).toEqual({ id: 'p00001' });
    expect(body.trailer).toEqual({ country: 'de', records: 2005, complete: true, changesCursor: 'cursor' });
    // Before the 1001st and the 2001st record: the request's own unit covered the first thousand.
    expect(body.asked).toBe(2);
    expect(body.finished).toBe(true);
  });

  it('ends with an incomplete trailer where a charge is refused, and stops reading the store', async () => {
    const body = await bodyOf(
      [1000, 1000, 1000],
      [{ ok: true }, { ok: false, reason: 'resume after 7 seconds' }],
    );
    expect(body.lines).toHaveLength(2000);
    expect(body.trailer).toEqual({
      country: 'de',
      records: 2000,
      complete: false,
      reason: 'resume after 7 seconds',
      changesCursor: 'cursor',
    });
    expect(body.finished).toBe(true);
  });

  it('charges by records sent, whatever the page sizes', async () => {
    const body = await bodyOf([999, 2, 1000], [{ ok: false, reason: 'spent' }]);
    expect(body.lines).toHaveLength(1000);
    expect(body.trailer).toMatchObject({ records: 1000, complete: false });
  });

  it('ends with an incomplete trailer after the page where a limit says so, and stops reading the store', async () => {
    const body = await bodyOf([1000, 1000, 1000], [], 2);
    expect(body.lines).toHaveLength(2000);
    expect(body.trailer).toEqual({
      country: 'de',
      records: 2000,
      complete: false,
      reason: 'the longest duration',
      changesCursor: 'cursor',
    });
    expect(body.finished).toBe(true);
  });

  it('is only a trailer for an empty dataset, charging nothing', async () => {
    const body = await bodyOf([], []);
    expect(body.lines).toEqual([]);
    expect(body.trailer).toMatchObject({ records: 0, complete: true });
    expect(body.asked).toBe(0);
  });
});

describe('export limits', () => {
  it('counts live and sandbox slots apart: a full sandbox takes no live slot', () => {
    const slots = createProcessSlots({ live: 2, test: 1 });
    expect(slots.take('test')).toBe(true);
    expect(slots.take('test')).toBe(false);
    expect(slots.take('live')).toBe(true);
    expect(slots.take('live')).toBe(true);
    expect(slots.take('live')).toBe(false);
    slots.free('test');
    expect(slots.take('test')).toBe(true);
    // A slot freed twice never makes room beyond the limit.
    slots.free('live');
    slots.free('live');
    slots.free('live');
    expect([slots.take('live'), slots.take('live'), slots.take('live')]).toEqual([true, true, false]);
  });

  it('ends an export once its longest duration has passed, or when its lease is lost', () => {
    const limits = { maxDurationMs: 600_000 };
    const startedAt = 1_000_000;
    expect(exportEndReason({ startedAt, leaseHeld: true }, limits, startedAt + 599_999)).toBeUndefined();
    expect(exportEndReason({ startedAt, leaseHeld: true }, limits, startedAt + 600_000)).toMatch(
      /longest an export streams \(10 minutes\); resume it now with resume .* and after/,
    );
    expect(exportEndReason({ startedAt, leaseHeld: false }, limits, startedAt + 1)).toMatch(
      /slot could not be renewed; resume it/,
    );
    expect(
      exportEndReason({ startedAt, leaseHeld: true }, { maxDurationMs: 2_500 }, startedAt + 3_000),
    ).toMatch(/\(3 seconds\)/);
  });

  it('calls a client stalled only past the stall limit, and waits at least a second after a refusal', () => {
    expect(exportStalled(0, { stallLimitMs: 120_000 }, 119_999)).toBe(false);
    expect(exportStalled(0, { stallLimitMs: 120_000 }, 120_000)).toBe(true);
    expect([
      retryAfterSeconds(0),
      retryAfterSeconds(1),
      retryAfterSeconds(1_001),
      retryAfterSeconds(30_000),
    ]).toEqual([1, 1, 2, 30]);
  });
});
