import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INITIAL_WATCH_MEMORY,
  createSearchRequestCache,
  indexStateAt,
  observeProbe,
  type IndexState,
  type RequestAdmission,
  type SearchCacheAdmission,
  type SearchCacheOptions,
} from '../src/index.js';

// The cache in isolation: `send` is a plain function standing for the client's request, and time is a
// clock the spec moves. (directory.service.int.spec.ts runs it in front of the real Elasticsearch.)

const TTL = 500;

function setUp(options: Partial<SearchCacheOptions> = {}) {
  const clock = { now: 1_000 };
  const cache = createSearchRequestCache({
    maxEntries: 100,
    maxBytes: 1_000_000,
    ttlMs: TTL,
    now: () => clock.now,
    ...options,
  });
  let sent = 0;
  /** Answers `request` as the cluster would, numbering each request actually sent. */
  const ask = (request: object, admission?: RequestAdmission) =>
    cache.answer(
      request,
      () => {
        sent += 1;
        return Promise.resolve({ request, sentAt: clock.now, number: sent });
      },
      admission,
    );
  return { cache, clock, ask, sent: () => sent };
}

const page = (city: string, size = 10) => ({ index: 'doctors', size, query: { term: { city } } });

/** Lets pending promise callbacks run (the fake sends answer on the next microtasks). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('search request cache', () => {
  it('answers a repeated request from memory within the TTL, and asks again after it', async () => {
    const { cache, clock, ask, sent } = setUp();
    const first = await ask(page('madrid'));
    clock.now += TTL;
    expect(await ask(page('madrid'))).toBe(first);
    expect(sent()).toBe(1);
    clock.now += 1;
    const fresh = await ask(page('madrid'));
    expect(fresh.number).toBe(2);
    expect(sent()).toBe(2);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 2, coalesced: 0, entries: 1 });
  });

  it('keys by the whole request: any different value is another entry, an equal request built anew shares it', async () => {
    const { ask, sent } = setUp();
    await ask(page('madrid'));
    await ask(page('madrid', 25));
    await ask(page('barcelona'));
    await ask({ ...page('madrid'), search_after: ['garcia', 'es-1'] });
    expect(sent()).toBe(4);
    await ask(JSON.parse(JSON.stringify(page('madrid'))) as object);
    expect(sent()).toBe(4);
  });

  it('coalesces identical requests in flight into one request, every caller getting its answer', async () => {
    const { cache, ask, sent } = setUp();
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask(page('madrid'))));
    expect(sent()).toBe(1);
    expect(new Set(answers).size).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 1, coalesced: 19, entries: 1 });
  });

  it('keeps no failure: every waiter of a failed request gets its error, and the next request is sent', async () => {
    const { cache } = setUp();
    let attempts = 0;
    let fail!: (error: Error) => void;
    const failing = () => {
      attempts += 1;
      return new Promise<object>((_resolve, reject) => (fail = reject));
    };
    const waiters = Array.from({ length: 5 }, () => cache.answer(page('madrid'), failing));
    await settle();
    const timeout = new Error('Request timed out');
    fail(timeout);
    const outcomes = await Promise.allSettled(waiters);
    expect(
      outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as unknown) : 'answered')),
    ).toEqual(Array.from({ length: 5 }, () => timeout));
    expect(attempts).toBe(1);
    expect(cache.stats().entries).toBe(0);

    const answer = await cache.answer(page('madrid'), () => Promise.resolve({ ok: true }));
    expect(answer).toEqual({ ok: true });
    expect(cache.stats()).toMatchObject({ misses: 2, coalesced: 4, entries: 1 });
  });

  it('holds at most maxEntries answers, dropping the least recently used', async () => {
    const { cache, ask, sent } = setUp({ maxEntries: 3 });
    for (const city of ['a', 'b', 'c']) await ask(page(city));
    await ask(page('a')); // a is now the most recently used; b the least
    await ask(page('d'));
    expect(cache.stats().entries).toBe(3);
    expect(sent()).toBe(4);
    await ask(page('a'));
    await ask(page('c'));
    expect(sent()).toBe(4);
    await ask(page('b'));
    expect(sent()).toBe(5);
  });

  it('holds at most maxBytes of answers, and answers but never keeps one larger than a tenth of them', async () => {
    const { cache } = setUp({ maxBytes: 10_000 });
    const answerOf = (bytes: number) => () => Promise.resolve({ text: 'x'.repeat(bytes) });
    for (let city = 0; city < 20; city += 1) await cache.answer(page(`city-${city}`), answerOf(800));
    expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
    expect(cache.stats().entries).toBeLessThan(20);

    const before = cache.stats().entries;
    const large = await cache.answer(page('large'), answerOf(2_000));
    expect(large.text).toHaveLength(2_000);
    expect(cache.stats().entries).toBe(before);
    let sentAgain = false;
    await cache.answer(page('large'), () => {
      sentAgain = true;
      return Promise.resolve({ text: '' });
    });
    expect(sentAgain).toBe(true);
  });

  it('freezes the answers it shares, so no caller can change another caller’s answer', async () => {
    const { cache } = setUp();
    const answer = await cache.answer(page('madrid'), () =>
      Promise.resolve({ hits: { hits: [{ _source: { doctor: { name: 'Clínica' } } }] } }),
    );
    const doctor = answer.hits.hits[0]?._source.doctor;
    expect(Object.isFrozen(doctor)).toBe(true);
    expect(() => {
      if (doctor) doctor.name = 'changed';
    }).toThrow(TypeError);
  });

  it('law: every answer is the answer to that very request, sent at most one TTL ago', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<SearchCacheAdmission>('repeated', 'every'),
        fc.array(
          fc.record({
            city: fc.integer({ min: 0, max: 6 }),
            wait: fc.integer({ min: 0, max: 300 }),
            admission: fc.constantFrom<RequestAdmission>('first-miss', 'second-miss'),
          }),
          {
            maxLength: 60,
          },
        ),
        fc.integer({ min: 1, max: 5 }),
        async (admit, steps, maxEntries) => {
          const { clock, ask, sent } = setUp({ admit, maxEntries });
          for (const { city, wait, admission } of steps) {
            clock.now += wait;
            const request = page(`city-${city}`);
            const answer = await ask(request, admission);
            expect(answer.request).toEqual(request);
            expect(clock.now - answer.sentAt).toBeLessThanOrEqual(TTL);
          }
          expect(sent()).toBeLessThanOrEqual(steps.length);
        },
      ),
    );
  });
});

describe('search request cache admitting an answer at its request’s second miss', () => {
  const repeatedOnly = (options: Partial<SearchCacheOptions> = {}) => {
    const set = setUp(options);
    return { ...set, ask: (request: object) => set.ask(request, 'second-miss') };
  };

  it('keeps no answer of a request asked once, and keeps it when the request misses again', async () => {
    const { cache, ask, sent } = repeatedOnly();
    await ask(page('madrid'));
    expect(cache.stats()).toMatchObject({ misses: 1, entries: 0 });
    const second = await ask(page('madrid'));
    expect(await ask(page('madrid'))).toBe(second);
    expect(sent()).toBe(2);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 2, entries: 1 });
  });

  it('keeps the answer again when a kept one has gone stale', async () => {
    const { cache, clock, ask, sent } = repeatedOnly();
    await ask(page('madrid'));
    await ask(page('madrid'));
    clock.now += TTL + 1;
    const fresh = await ask(page('madrid'));
    expect(await ask(page('madrid'))).toBe(fresh);
    expect(sent()).toBe(3);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 3, entries: 1 });
  });

  it('keeps at once the answer another caller waited on in flight', async () => {
    const { cache, ask, sent } = repeatedOnly();
    const [first, waited] = await Promise.all([ask(page('madrid')), ask(page('madrid'))]);
    expect(waited).toBe(first);
    expect(await ask(page('madrid'))).toBe(first);
    expect(sent()).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, coalesced: 1, entries: 1 });
  });

  it('keeps at once what is asked to be kept at the first miss, and everything with admit every', async () => {
    const { cache, ask, sent } = setUp();
    await ask(page('madrid'), 'first-miss');
    expect(cache.stats().entries).toBe(1);
    const every = setUp({ admit: 'every' });
    await every.ask(page('madrid'), 'second-miss');
    await every.ask(page('madrid'), 'second-miss');
    expect(every.sent()).toBe(1);
    expect(sent()).toBe(1);
  });

  it('remembers as many requests seen once as it holds answers, forgetting the least recent', async () => {
    const { cache, ask, sent } = repeatedOnly({ maxEntries: 2 });
    for (const city of ['a', 'b', 'c']) await ask(page(city));
    // a was forgotten for c: asked again, it is seen once more, not kept.
    await ask(page('a'));
    expect(cache.stats().entries).toBe(0);
    await ask(page('c'));
    await ask(page('a'));
    expect(cache.stats().entries).toBe(2);
    expect(sent()).toBe(6);
    await ask(page('a'));
    await ask(page('c'));
    expect(sent()).toBe(6);
  });
});

describe('search request cache with an index watch', () => {
  /** A cache whose index state the spec sets by hand. */
  function watched(options: Partial<SearchCacheOptions> = {}) {
    const index: IndexState = { generation: 1, settled: true };
    const set = setUp({ indexState: () => ({ ...index }), settledMaxAgeMs: 60_000, ...options });
    return { ...set, index };
  }

  it('serves an answer of a settled index past the TTL until the watch sees a change', async () => {
    const { clock, ask, sent, index } = watched();
    const first = await ask(page('madrid'));
    clock.now += 30_000;
    expect(await ask(page('madrid'))).toBe(first);
    index.generation = 2;
    expect((await ask(page('madrid'))).number).toBe(2);
    expect(sent()).toBe(2);
  });

  it('keeps only the TTL for an answer sent while a change was not yet searchable, or while the watch is unsure', async () => {
    const { clock, ask, sent, index } = watched();
    index.settled = false;
    await ask(page('madrid'));
    index.settled = true;
    clock.now += TTL + 1;
    await ask(page('madrid'));
    expect(sent()).toBe(2);

    // Sent while settled, but the watch has lost track since: the TTL again.
    clock.now += 1;
    index.settled = false;
    clock.now += TTL + 1;
    await ask(page('madrid'));
    expect(sent()).toBe(3);
  });

  it('never serves an answer older than settledMaxAgeMs, whatever the watch says', async () => {
    const { clock, ask, sent } = watched({ settledMaxAgeMs: 5_000 });
    await ask(page('madrid'));
    clock.now += 5_000;
    await ask(page('madrid'));
    expect(sent()).toBe(1);
    clock.now += 1;
    await ask(page('madrid'));
    expect(sent()).toBe(2);
  });

  // The guarantee, end to end through the watch's rules: a simulated index takes writes that become
  // searchable within one refresh interval; probes read its write count at a random moment while in
  // flight. Whenever a lookup is answered, every write made at least TTL + one refresh interval before
  // is in the answer — as with a plain TTL cache, however long the watch kept the entry.
  it('law: an answer holds every write made a TTL and a refresh interval before it is served', async () => {
    const REFRESH = 1_000;
    const PROBE = 250;
    const timings = { probeIntervalMs: PROBE, refreshIntervalMs: REFRESH };
    const write = fc.record({
      at: fc.integer({ min: 0, max: 8_000 }),
      delay: fc.integer({ min: 0, max: REFRESH }),
    });
    const probeLag = fc.integer({ min: 0, max: PROBE });
    await fc.assert(
      fc.asyncProperty(
        fc.array(write, { maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 40 }),
        fc.array(probeLag, { minLength: 41, maxLength: 41 }),
        fc.integer({ min: 0, max: 3 }),
        async (writes, lookups, lags, failingProbe) => {
          const clock = { now: 0 };
          let memory = INITIAL_WATCH_MEMORY;
          const cache = createSearchRequestCache({
            maxEntries: 10,
            maxBytes: 1_000_000,
            ttlMs: TTL,
            indexState: () => indexStateAt(memory, clock.now, timings),
            now: () => clock.now,
          });
          const searchable = (at: number) =>
            writes.flatMap((entry, id) => (entry.at + entry.delay <= at ? [id] : []));
          const written = (at: number) => writes.filter((entry) => entry.at <= at).length;
          type Event = { at: number; run: () => Promise<void> };
          const events: Event[] = lookups.map((at) => ({
            at,
            run: async () => {
              const answer = await cache.answer(page('madrid'), () =>
                Promise.resolve({ visible: searchable(clock.now) }),
              );
              const due = writes.flatMap((entry, id) => (entry.at <= at - TTL - REFRESH ? [id] : []));
              expect(answer.visible).toEqual(expect.arrayContaining(due));
            },
          }));
          for (let probe = 0; probe * PROBE <= 10_000; probe += 1) {
            const sentAt = probe * PROBE;
            const lag = lags[probe % lags.length] ?? 0;
            events.push({
              at: sentAt + lag,
              run: () => {
                // The cluster counts its writes somewhere between sending and answering.
                const fingerprint = probe % 7 === failingProbe ? null : String(written(sentAt + lag / 2));
                memory = observeProbe(memory, fingerprint, sentAt, sentAt + lag);
                return Promise.resolve();
              },
            });
          }
          events.sort((a, b) => a.at - b.at);
          for (const event of events) {
            clock.now = event.at;
            await event.run();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('index watch rules', () => {
  const timings = { probeIntervalMs: 250, refreshIntervalMs: 1_000 };

  it('is settled once no change has been seen for a refresh interval, and while probes keep answering', () => {
    let memory = observeProbe(INITIAL_WATCH_MEMORY, 'doctors-a/u/10/0', 0, 5);
    expect(indexStateAt(memory, 500, timings)).toEqual({ generation: 1, settled: false });
    memory = observeProbe(memory, 'doctors-a/u/10/0', 1_000, 1_004);
    expect(indexStateAt(memory, 1_006, timings)).toEqual({ generation: 1, settled: true });
    // No answered probe for more than two intervals: unsure, so not settled.
    expect(indexStateAt(memory, 1_501, timings).settled).toBe(false);
  });

  it('moves the generation on a change, and after a failed probe even if nothing changed', () => {
    let memory = observeProbe(INITIAL_WATCH_MEMORY, 'doctors-a/u/10/0', 0, 5);
    memory = observeProbe(memory, 'doctors-a/u/11/0', 250, 255);
    expect(memory.generation).toBe(2);
    memory = observeProbe(memory, null, 500, 600);
    expect(indexStateAt(memory, 600, timings).settled).toBe(false);
    memory = observeProbe(memory, 'doctors-a/u/11/0', 750, 760);
    expect(memory.generation).toBe(3);
    // The change is dated when the probe answered (760), not sent: settled a refresh interval after that.
    memory = observeProbe(memory, 'doctors-a/u/11/0', 1_500, 1_505);
    expect(indexStateAt(memory, 1_755, timings).settled).toBe(false);
    expect(indexStateAt(memory, 1_761, timings).settled).toBe(true);
  });
});
