import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, type PlaceEvent } from '../src/events/events.js';
import { foldPlace } from '../src/places/place-fold.js';
import {
  evolve,
  initialPlaceState,
  isServed,
  type PlaceState,
  type StoredPlaceEvent,
} from '../src/events/place-state.js';
import { crawlMetadata, makeEvent, observed, PLACE_ID, PUBLICATION, servedState } from './fixtures.js';

const crawl = (name: string, eventId: string, occurredAt: string, position: number) =>
  makeEvent(
    'place.crawled',
    { observed: observed({ name }), crawl: crawlMetadata() },
    { eventId, occurredAt, position },
  );
const flag = (
  type: Exclude<PlaceEvent['type'], 'place.crawled' | 'place.published'>,
  eventId: string,
  occurredAt: string,
  position: number,
) =>
  makeEvent(type, type === 'place.suppressed' || type === 'place.unsuppressed' ? { reason: 'r' } : {}, {
    eventId,
    occurredAt,
    position,
  });

describe('foldPlace', () => {
  it('starts empty', () => {
    expect(foldPlace(PLACE_ID, [])).toEqual(initialPlaceState(PLACE_ID));
    expect(initialPlaceState(PLACE_ID)).toMatchObject({ version: 0, observed: null, published: false });
  });

  it('replaces observed wholesale with the latest crawl, whatever the arrival order', () => {
    const early = makeEvent(
      'place.crawled',
      { observed: observed({ name: 'Old', email: 'old@example.de' }), crawl: crawlMetadata() },
      { eventId: 'a', occurredAt: '2024-01-01T00:00:00Z', position: 7 },
    );
    const late = makeEvent(
      'place.crawled',
      { observed: observed({ name: 'New', email: null }), crawl: crawlMetadata() },
      { eventId: 'b', occurredAt: '2024-02-01T00:00:00Z', position: 3 },
    );
    const state = foldPlace(PLACE_ID, [late, early]);
    expect(state.observed?.name).toBe('New');
    expect(state.observed?.email).toBeNull();
    expect(state.observedAt).toBe('2024-02-01T00:00:00Z');
    expect(state.version).toBe(2);
  });

  it('compares occurredAt as instants, not as strings', () => {
    // As strings "…01:30+02:00" sorts after "…00:00Z", but it is the earlier instant (23:30Z).
    const earlier = crawl('Earlier', 'z', '2024-01-01T01:30:00+02:00', 1);
    const later = crawl('Later', 'a', '2024-01-01T00:00:00Z', 2);
    expect(foldPlace(PLACE_ID, [later, earlier]).observed?.name).toBe('Later');
    expect(foldPlace(PLACE_ID, [earlier, later]).observed?.name).toBe('Later');
  });

  it('breaks ties on the same instant by eventId, not by position or arrival', () => {
    const first = crawl('From b', 'evt-b', '2024-01-01T01:00:00+01:00', 1);
    const second = crawl('From a', 'evt-a', '2024-01-01T00:00:00Z', 2);
    expect(foldPlace(PLACE_ID, [first, second]).observed?.name).toBe('From b');
    expect(foldPlace(PLACE_ID, [second, first]).observed?.name).toBe('From b');
  });

  it('applies an event delivered twice once', () => {
    const unverify = flag('place.unverified', 'u', '2024-01-02T00:00:00Z', 3);
    const verify = flag('place.verified', 'v', '2024-01-01T00:00:00Z', 2);
    // Replaying the earlier "verified" must not undo the later "unverified".
    expect(foldPlace(PLACE_ID, [verify, unverify, verify]).verified).toBe(false);
  });

  it('keeps the first stored copy (lowest position) of a conflicting eventId, in any order', () => {
    // The store never keeps two copies; if a caller hands us two, the result must still not depend on order.
    const stored = crawl('Stored', 'same', '2024-01-01T00:00:00Z', 4);
    const conflicting = crawl('Conflicting', 'same', '2024-01-01T00:00:00Z', 9);
    expect(foldPlace(PLACE_ID, [stored, conflicting]).observed?.name).toBe('Stored');
    expect(foldPlace(PLACE_ID, [conflicting, stored]).observed?.name).toBe('Stored');
    expect(foldPlace(PLACE_ID, [conflicting, stored]).version).toBe(1);
  });

  it('keeps the last publication after unpublishing, and republishing updates it', () => {
    const published = makeEvent('place.published', PUBLICATION, {
      eventId: 'p1',
      occurredAt: '2024-01-01T00:00:00Z',
      position: 1,
    });
    const unpublished = flag('place.unpublished', 'p2', '2024-01-02T00:00:00Z', 2);
    const state = foldPlace(PLACE_ID, [published, unpublished]);
    expect(state.published).toBe(false);
    expect(state.publication).toEqual(PUBLICATION);

    const moved = { ...PUBLICATION, citySlug: 'potsdam' };
    const republished = makeEvent('place.published', moved, {
      eventId: 'p3',
      occurredAt: '2024-01-03T00:00:00Z',
      position: 3,
    });
    expect(foldPlace(PLACE_ID, [republished, unpublished, published])).toMatchObject({
      published: true,
      publication: moved,
    });
  });

  it.each([
    ['place.suppressed', 'place.unsuppressed', (s: PlaceState) => s.suppressedReason !== null],
    ['place.closed', 'place.reopened', (s: PlaceState) => s.closed],
    ['place.verified', 'place.unverified', (s: PlaceState) => s.verified],
  ] as const)('%s / %s toggle their flag by time order', (on, off, read) => {
    const onEvent = flag(on, 'x1', '2024-01-01T00:00:00Z', 2);
    const offEvent = flag(off, 'x2', '2024-01-02T00:00:00Z', 1);
    expect(read(foldPlace(PLACE_ID, [onEvent]))).toBe(true);
    expect(read(foldPlace(PLACE_ID, [offEvent, onEvent]))).toBe(false);
    const onAgain = flag(on, 'x3', '2024-01-03T00:00:00Z', 3);
    expect(read(foldPlace(PLACE_ID, [onAgain, offEvent, onEvent]))).toBe(true);
  });

  it('records the suppression reason', () => {
    const event = makeEvent(
      'place.suppressed',
      { reason: 'owner request' },
      {
        eventId: 's',
        occurredAt: '2024-01-01T00:00:00Z',
        position: 1,
      },
    );
    expect(foldPlace(PLACE_ID, [event]).suppressedReason).toBe('owner request');
  });

  it('refuses events of another place', () => {
    const foreign = makeEvent(
      'place.closed',
      {},
      {
        eventId: 'c',
        occurredAt: '2024-01-01T00:00:00Z',
        position: 1,
        placeId: 'other',
      },
    );
    expect(() => foldPlace(PLACE_ID, [foreign])).toThrow(/belongs to place other/);
  });
});

describe('evolve', () => {
  it('advances the stream version by one per applied event', () => {
    const closed = flag('place.closed', 'c', '2024-01-01T00:00:00Z', 42);
    expect(evolve(initialPlaceState(PLACE_ID), closed).version).toBe(1);
    expect(evolve({ ...initialPlaceState(PLACE_ID), version: 50 }, closed).version).toBe(51);
  });
});

describe('isServed', () => {
  it('serves a published, crawled, unsuppressed, open place', () => {
    expect(isServed(servedState())).toBe(true);
  });

  it.each<[string, (state: PlaceState) => PlaceState]>([
    ['never published', (s) => ({ ...s, published: false, publication: null })],
    ['unpublished', (s) => ({ ...s, published: false })],
    ['published flag without a publication', (s) => ({ ...s, publication: null })],
    ['never crawled', (s) => ({ ...s, observed: null })],
    ['suppressed', (s) => ({ ...s, suppressedReason: 'legal' })],
    ['closed', (s) => ({ ...s, closed: true })],
  ])('does not serve a place that is %s', (_name, change) => {
    expect(isServed(change(servedState()))).toBe(false);
  });

  it('does not care about verification', () => {
    expect(isServed({ ...servedState(), verified: false })).toBe(true);
    expect(isServed({ ...servedState(), verified: true })).toBe(true);
  });
});

// Few instants, some spelled two ways, so that ties and string-vs-instant differences are common.
const INSTANTS = [
  '2024-01-01T00:00:00Z',
  '2024-01-01T01:00:00+01:00',
  '2024-01-01T00:00:00.500Z',
  '2024-01-01T12:00:00Z',
  '2024-01-01T13:30:00+02:00',
];

const eventArbitrary = (eventId: string, position: number): fc.Arbitrary<StoredPlaceEvent> =>
  fc.constantFrom(...INSTANTS).chain((occurredAt) => {
    const fields = { eventId, occurredAt, position };
    return fc.oneof(
      fc
        .string({ maxLength: 3 })
        .map((name) =>
          makeEvent('place.crawled', { observed: observed({ name }), crawl: crawlMetadata() }, fields),
        ),
      fc
        .record({ country: fc.constantFrom(...COUNTRY_CODES), citySlug: fc.constantFrom('berlin', 'madrid') })
        .map((place) => makeEvent('place.published', { ...PUBLICATION, ...place }, fields)),
      fc
        .constantFrom(
          'place.unpublished',
          'place.suppressed',
          'place.unsuppressed',
          'place.closed',
          'place.reopened',
          'place.verified',
          'place.unverified',
        )
        .map((type) => flag(type, eventId, occurredAt, position)),
    );
  });

const streamArbitrary = fc
  .uniqueArray(fc.stringMatching(/^[a-c]{1,2}$/), { maxLength: 12 })
  .chain((ids) => fc.tuple(...ids.map((id, index) => eventArbitrary(id, index + 1))));

describe('foldPlace laws', () => {
  it('gives the same state for any order of the events', () => {
    fc.assert(
      fc.property(
        streamArbitrary.chain((events) =>
          fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length })),
        ),
        ([events, shuffled]) => {
          expect(foldPlace(PLACE_ID, shuffled)).toEqual(foldPlace(PLACE_ID, events));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the same state when events are delivered more than once', () => {
    fc.assert(
      fc.property(
        streamArbitrary.chain((events) =>
          fc.tuple(
            fc.constant(events),
            fc.array(fc.nat(Math.max(0, events.length - 1)), { maxLength: events.length === 0 ? 0 : 10 }),
            fc.nat(),
          ),
        ),
        ([events, duplicateIndexes, seed]) => {
          const duplicates = duplicateIndexes.flatMap((index) => (events[index] ? [events[index]] : []));
          const withDuplicates = [...events, ...duplicates];
          // Rotate so duplicates also come first, not only last.
          const offset = withDuplicates.length === 0 ? 0 : seed % withDuplicates.length;
          const rotated = [...withDuplicates.slice(offset), ...withDuplicates.slice(0, offset)];
          expect(foldPlace(PLACE_ID, rotated)).toEqual(foldPlace(PLACE_ID, events));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sets version to the number of distinct events, whatever the order or duplicates', () => {
    fc.assert(
      fc.property(streamArbitrary, (events) => {
        const expected = new Set(events.map((event) => event.eventId)).size;
        expect(foldPlace(PLACE_ID, events).version).toBe(expected);
        expect(foldPlace(PLACE_ID, [...events, ...events].reverse()).version).toBe(expected);
      }),
    );
  });

  it('gives a fold that saw more of the stream a higher version, whatever the positions', () => {
    // A commits its event at position 7 after B committed position 8: B's fold missed A's event.
    const a = flag('place.closed', 'a', '2024-01-01T00:00:00Z', 7);
    const b = flag('place.reopened', 'b', '2024-01-02T00:00:00Z', 8);
    expect(foldPlace(PLACE_ID, [a, b]).version).toBeGreaterThan(foldPlace(PLACE_ID, [b]).version);
  });
});
