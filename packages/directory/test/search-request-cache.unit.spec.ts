import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSearchRequestCache, type SearchCacheOptions } from '../src/index.js';

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
  const ask = (request: object) =>
    cache.answer(request, () => {
      sent += 1;
      return Promise.resolve({ request, sentAt: clock.now, number: sent });
    });
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
        fc.array(
          fc.record({ city: fc.integer({ min: 0, max: 6 }), wait: fc.integer({ min: 0, max: 300 }) }),
          {
            maxLength: 60,
          },
        ),
        fc.integer({ min: 1, max: 5 }),
        async (steps, maxEntries) => {
          const { clock, ask, sent } = setUp({ maxEntries });
          for (const { city, wait } of steps) {
            clock.now += wait;
            const request = page(`city-${city}`);
            const answer = await ask(request);
            expect(answer.request).toEqual(request);
            expect(clock.now - answer.sentAt).toBeLessThanOrEqual(TTL);
          }
          expect(sent()).toBeLessThanOrEqual(steps.length);
        },
      ),
    );
  });
});
