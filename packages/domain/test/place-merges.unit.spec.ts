import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compilePlaceEventFastPath,
  parsePlaceEvent,
  parsePlaceEventWithZod,
  PLACE_EVENT_TYPES,
} from '../src/events/events.js';
import { isServed, type StoredPlaceEvent } from '../src/events/place-state.js';
import { storedMergeOf, resolveMerge, resolveMerges, type MergeLink } from '../src/places/merges.js';
import { foldPlace } from '../src/places/place-fold.js';
import { projectPlace } from '../src/search/place-projection.js';
import { crawlMetadata, makeEvent, observed, PLACE_ID, PUBLICATION, SITE_ORIGIN } from './fixtures.js';

const SURVIVOR = 'place_2';

const base: StoredPlaceEvent[] = [
  makeEvent(
    'place.crawled',
    { observed: observed(), crawl: crawlMetadata() },
    { eventId: 'c1', occurredAt: '2024-05-01T10:00:00Z', position: 1 },
  ),
  makeEvent('place.published', PUBLICATION, {
    eventId: 'p1',
    occurredAt: '2024-05-01T11:00:00Z',
    position: 2,
  }),
];
const merged = (eventId: string, occurredAt: string, into = SURVIVOR, position = 10) =>
  makeEvent('place.merged', { into }, { eventId, occurredAt, position });
const unmerged = (eventId: string, occurredAt: string, position = 11) =>
  makeEvent('place.unmerged', {}, { eventId, occurredAt, position });

const raw = (type: string, payload: unknown, placeId = PLACE_ID) => ({
  eventId: 'evt-merge-1',
  placeId,
  type,
  occurredAt: '2024-05-02T10:00:00Z',
  schemaVersion: 1,
  payload,
});

describe('place.merged and place.unmerged events', () => {
  it('are event types, validated like every other', () => {
    expect(PLACE_EVENT_TYPES).toEqual(expect.arrayContaining(['place.merged', 'place.unmerged']));
    expect(parsePlaceEvent(raw('place.merged', { into: SURVIVOR }))).toMatchObject({ ok: true });
    expect(parsePlaceEvent(raw('place.unmerged', {}))).toMatchObject({ ok: true });
  });

  it.each([
    ['no survivor', raw('place.merged', {}), 'payload.into: '],
    ['an invalid survivor id', raw('place.merged', { into: 'no/slash' }), 'payload.into: Expected 1-128'],
    ['an unknown payload key', raw('place.merged', { into: SURVIVOR, why: 'x' }), 'payload: '],
    ['a payload on unmerge', raw('place.unmerged', { into: SURVIVOR }), 'payload: '],
    [
      'a merge into itself',
      raw('place.merged', { into: PLACE_ID }),
      "payload.into: Expected another place than the event's own placeId",
    ],
  ])('turn %s into a dead letter with the reason', (_, event, reason) => {
    const result = parsePlaceEvent(event);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(reason);
    // The compiled fast path and zod agree (the fast path never accepts what zod refuses).
    expect(parsePlaceEventWithZod(event)).toEqual(result);
  });

  it('are taken by the compiled fast path when valid', () => {
    const fastPath = compilePlaceEventFastPath();
    expect(fastPath(raw('place.merged', { into: SURVIVOR }))).toBeDefined();
    expect(fastPath(raw('place.unmerged', {}))).toBeDefined();
  });
});

describe('folding merges', () => {
  it('stops serving a merged-away place, remembering where it went and when', () => {
    const state = foldPlace(PLACE_ID, [...base, merged('m1', '2024-06-01T00:00:00Z')]);
    expect(isServed(state)).toBe(false);
    expect(state).toMatchObject({ mergedInto: SURVIVOR, mergedAt: '2024-06-01T00:00:00Z' });
    // With the profile page it was published under: that page forwards too.
    expect(storedMergeOf(state)).toEqual({
      placeId: PLACE_ID,
      mergedInto: SURVIVOR,
      mergedAt: '2024-06-01T00:00:00Z',
      profilePage: 'de/berlin/praxis-dr-mueller',
    });
    // A place never published has no page to forward.
    expect(storedMergeOf({ ...state, publication: null })?.profilePage).toBeNull();
    // Removed from the index like a suppression: a tombstone, with the merge stored beside it.
    const projection = projectPlace(PLACE_ID, [...base, merged('m1', '2024-06-01T00:00:00Z')], {
      siteOrigin: SITE_ORIGIN,
    });
    expect(projection.document).toEqual({ served: false, placeId: PLACE_ID });
    expect(projection.merge).toEqual(storedMergeOf(state));
  });

  it('serves the place again after an unmerge, and forgets the merge', () => {
    const state = foldPlace(PLACE_ID, [
      ...base,
      merged('m1', '2024-06-01T00:00:00Z'),
      unmerged('u1', '2024-06-02T00:00:00Z'),
    ]);
    expect(isServed(state)).toBe(true);
    expect(state).toMatchObject({ mergedInto: null, mergedAt: null });
    expect(projectPlace(PLACE_ID, [...base], { siteOrigin: SITE_ORIGIN }).merge).toBeUndefined();
  });

  it('applies a late unmerge in time order, not arrival order', () => {
    // The unmerge happened before the merge it arrives after: the place stays merged.
    const state = foldPlace(PLACE_ID, [
      ...base,
      merged('m1', '2024-06-02T00:00:00Z', SURVIVOR, 10),
      unmerged('u1', '2024-06-01T00:00:00Z', 11),
    ]);
    expect(state.mergedInto).toBe(SURVIVOR);
  });

  it('keeps the newest merge when a place is merged twice', () => {
    const state = foldPlace(PLACE_ID, [
      ...base,
      merged('m2', '2024-06-03T00:00:00Z', 'place_3', 10),
      merged('m1', '2024-06-01T00:00:00Z', SURVIVOR, 11),
    ]);
    expect(state).toMatchObject({ mergedInto: 'place_3', mergedAt: '2024-06-03T00:00:00Z' });
  });

  it('leaves the other reasons not to serve as they are', () => {
    const suppressed = makeEvent(
      'place.suppressed',
      { reason: 'owner request' },
      { eventId: 's1', occurredAt: '2024-05-03T00:00:00Z', position: 3 },
    );
    const state = foldPlace(PLACE_ID, [
      ...base,
      suppressed,
      merged('m1', '2024-06-01T00:00:00Z'),
      unmerged('u1', '2024-06-02T00:00:00Z'),
    ]);
    expect(isServed(state)).toBe(false);
    expect(state.suppressedReason).toBe('owner request');
  });
});

const link = (placeId: string, mergedInto: string, mergedAt = '2024-06-01T00:00:00Z'): MergeLink => ({
  placeId,
  mergedInto,
  mergedAt,
});

describe('resolveMerge', () => {
  it('forwards a merged-away id to its survivor', () => {
    const links = new Map([['a', link('a', 'b')]]);
    expect(resolveMerge('a', links)).toEqual({
      placeId: 'a',
      mergedInto: 'b',
      mergedAt: link('a', 'b').mergedAt,
    });
    expect(resolveMerge('b', links)).toBeNull();
  });

  it('follows a chain to its end, dated by the id\u2019s own merge', () => {
    const links = new Map([
      ['a', link('a', 'b', '2024-06-01T00:00:00Z')],
      ['b', link('b', 'c', '2024-07-01T00:00:00Z')],
    ]);
    expect(resolveMerge('a', links)).toEqual({
      placeId: 'a',
      mergedInto: 'c',
      mergedAt: '2024-06-01T00:00:00Z',
    });
    expect(resolveMerge('b', links)?.mergedInto).toBe('c');
  });

  it('gives no survivor to a loop, nor to a chain that runs into one', () => {
    const links = new Map([
      ['a', link('a', 'b')],
      ['b', link('b', 'a')],
      ['d', link('d', 'a')],
      ['x', link('x', 'y')],
      ['y', link('y', 'z')],
      ['z', link('z', 'x')],
    ]);
    for (const id of ['a', 'b', 'd', 'x', 'y', 'z']) expect(resolveMerge(id, links)).toBeNull();
  });

  it('resolves many ids at once, leaving out those without a survivor', () => {
    const forwards = resolveMerges(['a', 'b', 'c', 'q'], [link('a', 'b'), link('b', 'c'), link('q', 'q2')]);
    expect([...forwards.keys()]).toEqual(['a', 'b', 'q']);
    expect(forwards.get('a')?.mergedInto).toBe('c');
  });

  it('answers the same for any order the links are listed in, and always ends at an unmerged id or null', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const linksArbitrary = fc.uniqueArray(
      fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...ids)).filter(([from, to]) => from !== to),
      { selector: ([from]) => from, maxLength: ids.length },
    );
    fc.assert(
      fc.property(
        linksArbitrary.chain((pairs) =>
          fc.tuple(fc.constant(pairs), fc.shuffledSubarray(pairs, { minLength: pairs.length })),
        ),
        ([pairs, shuffled]) => {
          const links = pairs.map(([from, to]) => link(from, to));
          const forwards = resolveMerges(ids, links);
          expect(
            resolveMerges(
              ids,
              shuffled.map(([from, to]) => link(from, to)),
            ),
          ).toEqual(forwards);
          const merged = new Set(pairs.map(([from]) => from));
          for (const forward of forwards.values()) expect(merged.has(forward.mergedInto)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// Random orders and replays of the same events, merges among them, converge to the same state.
const INSTANTS = [
  '2024-06-01T00:00:00Z',
  '2024-06-01T02:00:00+02:00',
  '2024-06-02T00:00:00Z',
  '2024-06-03T00:00:00Z',
];
const mergeEventArbitrary = (eventId: string, position: number): fc.Arbitrary<StoredPlaceEvent> =>
  fc.constantFrom(...INSTANTS).chain((occurredAt) =>
    fc.oneof(
      fc.constantFrom(SURVIVOR, 'place_3').map((into) => merged(eventId, occurredAt, into, position)),
      fc.constant(unmerged(eventId, occurredAt, position)),
      fc.constant(makeEvent('place.suppressed', { reason: 'r' }, { eventId, occurredAt, position })),
      fc.constant(makeEvent('place.unsuppressed', { reason: 'r' }, { eventId, occurredAt, position })),
    ),
  );
const mergeStreamArbitrary = fc
  .uniqueArray(fc.stringMatching(/^[a-d]{1,2}$/), { maxLength: 10 })
  .chain((ids) => fc.tuple(...ids.map((id, index) => mergeEventArbitrary(`m-${id}`, index + 3))))
  .map((events) => [...base, ...events]);

describe('merge fold laws', () => {
  it('converges for any order and any replay of the same events', () => {
    fc.assert(
      fc.property(
        mergeStreamArbitrary.chain((events) =>
          fc.tuple(
            fc.constant(events),
            fc.shuffledSubarray(events, { minLength: events.length }),
            fc.array(fc.nat(events.length - 1), { maxLength: 8 }),
          ),
        ),
        ([events, shuffled, replayed]) => {
          const replays = replayed.flatMap((index) => (events[index] ? [events[index]] : []));
          const expected = foldPlace(PLACE_ID, events);
          expect(foldPlace(PLACE_ID, [...replays, ...shuffled, ...replays])).toEqual(expected);
          expect(projectPlace(PLACE_ID, shuffled, { siteOrigin: SITE_ORIGIN }).merge ?? null).toEqual(
            storedMergeOf(expected),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

// Several places merging into each other: whatever order their events arrive in, and whatever is
// replayed, each place folds to the same state and every id forwards to the same survivor (or none).
const PLACES = ['p1', 'p2', 'p3', 'p4'];
const mergeEventsArbitrary = fc.array(
  fc.tuple(
    fc.constantFrom(...PLACES),
    fc.option(fc.constantFrom(...PLACES), { nil: null }),
    fc.constantFrom(...INSTANTS),
  ),
  { maxLength: 12 },
);

function eventsOf(specs: ReadonlyArray<[string, string | null, string]>): StoredPlaceEvent[] {
  return specs.flatMap(([placeId, into, occurredAt], index) => {
    const fields = { eventId: `e${index}`, occurredAt, position: index + 1, placeId };
    if (into === null) return [makeEvent('place.unmerged', {}, fields)];
    // A merge into itself never reaches a fold: validation turns it into a dead letter.
    return into === placeId ? [] : [makeEvent('place.merged', { into }, fields)];
  });
}

function forwardsOf(events: ReadonlyArray<StoredPlaceEvent>) {
  const links = PLACES.flatMap((placeId) => {
    const link = storedMergeOf(
      foldPlace(
        placeId,
        events.filter((event) => event.placeId === placeId),
      ),
    );
    return link === null ? [] : [link];
  });
  return resolveMerges(PLACES, links);
}

describe('merges across places', () => {
  it('resolve to the same survivors for any order and replay of the same events', () => {
    fc.assert(
      fc.property(
        mergeEventsArbitrary
          .map(eventsOf)
          .chain((events) =>
            fc.tuple(
              fc.constant(events),
              fc.shuffledSubarray(events, { minLength: events.length }),
              fc.array(fc.nat(Math.max(0, events.length - 1)), { maxLength: events.length === 0 ? 0 : 6 }),
            ),
          ),
        ([events, shuffled, replayed]) => {
          const replays = replayed.flatMap((index) => (events[index] ? [events[index]] : []));
          const expected = forwardsOf(events);
          expect(forwardsOf([...shuffled, ...replays])).toEqual(expected);
          // A survivor is never itself merged away.
          for (const forward of expected.values()) expect(expected.has(forward.mergedInto)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});
