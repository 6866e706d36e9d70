import { describe, expect, it } from 'vitest';
import { parsePlaceEvent } from '@directory/domain';
import type { RawEvent } from '../src/event-builders.js';
import {
  generateEvents,
  generateLabelledEvents,
  type GenerationSummary,
  type LabelledEvent,
} from '../src/generate-events.js';

function collect(count: number, seed: number): { events: LabelledEvent[]; summary: GenerationSummary } {
  const events: LabelledEvent[] = [];
  const generator = generateLabelledEvents({ count, seed });
  let step = generator.next();
  while (step.done !== true) {
    events.push(step.value);
    step = generator.next();
  }
  return { events, summary: step.value };
}

const sample = collect(5_000, 42);
const valid = sample.events.filter((entry) => entry.label !== 'invalid').map((entry) => entry.event);
const invalid = sample.events.filter((entry) => entry.label === 'invalid').map((entry) => entry.event);

const ndjson = (events: Iterable<RawEvent>) =>
  Array.from(events, (event) => JSON.stringify(event)).join('\n');

describe('generateEvents', () => {
  it('is deterministic: the same seed and count give identical output', () => {
    expect(ndjson(generateEvents({ count: 2_000, seed: 7 }))).toBe(
      ndjson(generateEvents({ count: 2_000, seed: 7 })),
    );
  });

  it('gives different output for a different seed or start time', () => {
    const base = ndjson(generateEvents({ count: 500, seed: 7 }));
    expect(ndjson(generateEvents({ count: 500, seed: 8 }))).not.toBe(base);
    expect(ndjson(generateEvents({ count: 500, seed: 7, startTime: '2027-01-01T00:00:00Z' }))).not.toBe(base);
  });

  it('is a prefix-stable stream: fewer events are the start of more events', () => {
    expect(`${ndjson(generateEvents({ count: 300, seed: 3 }))}\n`).toBe(
      `${ndjson(generateEvents({ count: 600, seed: 3 }))
        .split('\n')
        .slice(0, 300)
        .join('\n')}\n`,
    );
  });

  it('emits exactly count events', () => {
    for (const count of [0, 1, 17, 1_000])
      expect([...generateEvents({ count, seed: 1 })]).toHaveLength(count);
    expect(sample.events).toHaveLength(5_000);
    expect(sample.summary.events).toBe(5_000);
  });

  it('rejects a bad count or seed', () => {
    expect(() => generateEvents({ count: -1, seed: 1 }).next()).toThrow(/count/);
    expect(() => generateEvents({ count: 1.5, seed: 1 }).next()).toThrow(/count/);
    expect(() => generateEvents({ count: 1, seed: Number.NaN }).next()).toThrow(/seed/);
    expect(() => generateEvents({ count: 1, seed: 1, startTime: 'soon' }).next()).toThrow(/startTime/);
    expect(() => generateEvents({ count: 1, seed: 1, extraRecrawlsPerPlace: -1 }).next()).toThrow(
      /extraRecrawlsPerPlace/,
    );
  });

  it('yields the same events without the served estimate, which it then leaves at 0', () => {
    const options = { count: 1_000, seed: 7, extraRecrawlsPerPlace: 3 };
    const without = generateEvents({ ...options, estimateServed: false });
    const events: RawEvent[] = [];
    let step = without.next();
    while (step.done !== true) {
      events.push(step.value);
      step = without.next();
    }
    expect(ndjson(events)).toBe(ndjson(generateEvents(options)));
    expect(step.value.servedEstimate).toBe(0);
    expect(step.value.places).toBeGreaterThan(0);
  });

  it(
    'adds regular recrawls of the places when asked, and nothing else changes without them',
    {
      timeout: 30_000,
    },
    () => {
      expect(ndjson(generateEvents({ count: 1_000, seed: 7, extraRecrawlsPerPlace: 0 }))).toBe(
        ndjson(generateEvents({ count: 1_000, seed: 7 })),
      );
      const eventsPerPlace = (extraRecrawlsPerPlace: number): number => {
        const events = [...generateEvents({ count: 5_000, seed: 7, extraRecrawlsPerPlace })];
        return events.length / new Set(events.map((event) => event['placeId'])).size;
      };
      expect(eventsPerPlace(0)).toBeLessThan(3);
      // 7 more recrawls a place, fractions included: about ten events per place, as a weekly crawl leaves.
      const withRecrawls = eventsPerPlace(6.5);
      expect(withRecrawls).toBeGreaterThan(8.5);
      expect(withRecrawls).toBeLessThan(10.5);
    },
  );

  it('covers all seven countries and publishes only the live ones', () => {
    const crawledCountries = new Set<string>();
    const publishedCountries = new Set<string>();
    for (const event of valid) {
      const parsed = parsePlaceEvent(event);
      if (!parsed.ok) continue;
      if (parsed.value.type === 'place.crawled')
        crawledCountries.add(String(parsed.value.payload.observed.address.country));
      if (parsed.value.type === 'place.published') publishedCountries.add(parsed.value.payload.country);
    }
    expect([...crawledCountries].sort()).toEqual(['DE', 'ES', 'FR', 'GB', 'IT', 'MX', 'PT']);
    expect([...publishedCountries].sort()).toEqual(['de', 'es', 'it', 'pt']);
    expect(Object.keys(sample.summary.placesByCountry).sort()).toEqual([
      'de',
      'es',
      'fr',
      'gb',
      'it',
      'mx',
      'pt',
    ]);
  });

  it('never publishes a place crawled in fr, gb or mx', () => {
    const nonLivePlaces = new Set<string>();
    for (const { event } of sample.events) {
      const parsed = parsePlaceEvent(event);
      if (parsed.ok && parsed.value.type === 'place.crawled') {
        const country = parsed.value.payload.observed.address.country;
        if (country === 'FR' || country === 'GB' || country === 'MX') nonLivePlaces.add(parsed.value.placeId);
      }
    }
    expect(nonLivePlaces.size).toBeGreaterThan(100);
    const publishedThere = sample.events.filter(
      ({ event }) =>
        nonLivePlaces.has(String(event['placeId'])) && String(event['type']).endsWith('published'),
    );
    expect(publishedThere).toEqual([]);
  });

  it('emits events that all pass parsePlaceEvent, except the intended invalid ones', () => {
    const failures = valid.map((event) => parsePlaceEvent(event)).filter((result) => !result.ok);
    expect(failures).toEqual([]);
  });

  it('mixes in about 1% invalid events, each rejected by parsePlaceEvent', () => {
    const ratio = invalid.length / sample.events.length;
    expect(ratio).toBeGreaterThanOrEqual(0.003);
    expect(ratio).toBeLessThanOrEqual(0.03);
    expect(sample.summary.invalid).toBe(invalid.length);
    for (const event of invalid)
      expect(parsePlaceEvent(event), JSON.stringify(event)).toMatchObject({ ok: false });
  });

  it('gives every distinct event its own eventId, and repeats some events verbatim', () => {
    const seen = new Map<string, string>();
    let repeats = 0;
    for (const { event } of sample.events) {
      const id = String(event['eventId']);
      const json = JSON.stringify(event);
      const previous = seen.get(id);
      if (previous === undefined) seen.set(id, json);
      else {
        expect(json).toBe(previous);
        repeats++;
      }
    }
    expect(repeats).toBeGreaterThan(10);
    expect(repeats).toBe(sample.summary.duplicates);
  });

  it('delivers some events out of order within their place', () => {
    const latest = new Map<string, string>();
    let late = 0;
    for (const event of valid) {
      const placeId = String(event['placeId']);
      const occurredAt = String(event['occurredAt']);
      const previous = latest.get(placeId);
      if (previous !== undefined && occurredAt < previous) late++;
      if (previous === undefined || occurredAt > previous) latest.set(placeId, occurredAt);
    }
    expect(late).toBeGreaterThan(10);
  });

  it('covers the publication lifecycle and crawl metadata', () => {
    const types = new Set(valid.map((event) => String(event['type'])));
    for (const type of [
      'place.suppressed',
      'place.unsuppressed',
      'place.closed',
      'place.reopened',
      'place.unpublished',
      'place.verified',
    ]) {
      expect(types).toContain(type);
    }
    const crawled = valid.filter((event) => event['type'] === 'place.crawled');
    const withInternalKeys = crawled.filter((event) => JSON.stringify(event).includes('"internalScore"'));
    expect(withInternalKeys.length).toBeGreaterThan(0);
    expect(sample.summary.servedEstimate).toBeGreaterThan(0);
    expect(sample.summary.servedEstimate).toBeLessThan(sample.summary.places);
  });

  it('advances occurredAt from the start time', () => {
    const first = generateEvents({ count: 1, seed: 5, startTime: '2030-06-01T00:00:00Z' }).next();
    expect(first.done).toBe(false);
    const occurredAt = String((first.value as RawEvent)['occurredAt']);
    expect(occurredAt > '2030-06-01T00:00:00.000Z' && occurredAt < '2030-06-01T00:01:00.000Z').toBe(true);
  });
});
