// The compiled validator `parsePlaceEvent` tries first must change nothing: for any input, valid or
// broken in any of the ways below, `parsePlaceEvent` returns exactly what zod alone returns (the same
// value, keys in the same order, or the same reason). fast-check prints the seed of a failing run.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compilePlaceEventFastPath,
  COUNTRY_CODES,
  EVENT_ID_PATTERN,
  PLACE_EVENT_TYPES,
  PLACE_ID_PATTERN,
  SLUG_PATTERN,
  TIME_OF_DAY_PATTERN,
  parsePlaceEvent,
  parsePlaceEventWithZod,
} from '../src/events/events.js';
import { observed as observedFields } from './fixtures.js';

// Mostly plain text, now and then a character that matters: astral (two UTF-16 units), NUL, a lone
// surrogate, a separator the patterns care about.
const text = fc.string({
  unit: fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom('a', 'Z', '0', ' ', '-', 'é') },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: fc.constantFrom('🦷', '\u0000', '\ud800', '\udc00', '_', ':', '.') },
  ),
  maxLength: 12,
});
const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null, freq: 4 });
const phoneType = fc.constantFrom('mobile', 'landline', 'other');
const instant = fc.oneof(
  fc
    .date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2199-12-31T23:59:59Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString()),
  fc.stringMatching(
    /^20\d\d-0[1-9]-(?:0[1-9]|1\d|2[0-8])T[01]\d:[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-][01]\d:[0-5]\d)$/,
  ),
);
const timeRange = fc.record({
  open: fc.stringMatching(TIME_OF_DAY_PATTERN),
  close: fc.stringMatching(TIME_OF_DAY_PATTERN),
});
const observed = fc
  .record(
    {
      name: nullable(text),
      legalName: nullable(text),
      address: fc.record({
        street: nullable(text),
        city: nullable(text),
        state: nullable(text),
        postalCode: nullable(text),
        country: nullable(fc.stringMatching(/^[A-Z]{2}$/)),
      }),
      location: nullable(
        fc.record({
          latitude: fc.double({ min: -90, max: 90, noNaN: true }),
          longitude: fc.double({ min: -180, max: 180, noNaN: true }),
        }),
      ),
      phone: nullable(text),
      phoneType: nullable(phoneType),
      additionalPhones: fc.array(fc.record({ number: text, type: nullable(phoneType) }), { maxLength: 3 }),
      email: nullable(text),
      website: nullable(text),
      googleMapsUrl: nullable(text),
      primaryType: nullable(text),
      specialties: fc.array(text, { maxLength: 3 }),
      rating: nullable(fc.double({ min: 0, max: 5, noNaN: true })),
      reviewCount: nullable(fc.nat()),
      whatsappEligible: fc.boolean(),
      workingHours: nullable(fc.dictionary(text, fc.array(timeRange, { maxLength: 3 }), { maxKeys: 8 })),
      languages: fc.option(fc.array(text, { maxLength: 3 }), { nil: null }),
      acceptingNewPatients: fc.option(fc.boolean(), { nil: null }),
      wheelchairAccessible: fc.option(fc.boolean(), { nil: null }),
      insurance: fc.option(fc.array(text, { maxLength: 3 }), { nil: null }),
    },
    {
      requiredKeys: [
        'name',
        'legalName',
        'address',
        'location',
        'phone',
        'phoneType',
        'additionalPhones',
        'email',
        'website',
        'googleMapsUrl',
        'primaryType',
        'specialties',
        'rating',
        'reviewCount',
        'whatsappEligible',
        'workingHours',
      ],
    },
  )
  // Crawlers send fields in their own order and add fields of their own.
  .chain((fields) =>
    fc
      .tuple(
        fc.shuffledSubarray(Object.keys(fields), { minLength: Object.keys(fields).length }),
        fc.dictionary(fc.constantFrom('note', 'plusCode', 'x'), fc.jsonValue({ maxDepth: 1 }), {
          maxKeys: 2,
        }),
      )
      .map(([order, extra]) => ({
        ...Object.fromEntries(order.map((key) => [key, (fields as Record<string, unknown>)[key]])),
        ...extra,
      })),
  );
const crawl = fc.record({
  sourceUrl: text,
  crawlId: text,
  httpStatus: fc.integer({ min: 100, max: 599 }),
  fetchedAt: instant,
  durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
  contentHash: text,
});
const slug = fc.stringMatching(SLUG_PATTERN);
const payloads: Record<string, fc.Arbitrary<unknown>> = {
  'place.crawled': fc.record({ observed, crawl }),
  'place.published': fc.record({
    country: fc.constantFrom(...COUNTRY_CODES),
    citySlug: slug,
    profileSlug: slug,
  }),
  'place.suppressed': fc.record({ reason: text.filter((reason) => reason.length > 0) }),
  'place.unsuppressed': fc.record({ reason: text.filter((reason) => reason.length > 0) }),
  'place.merged': fc.record({ into: fc.stringMatching(PLACE_ID_PATTERN) }),
};
// Half of them crawls: the type with nearly every field.
const eventType = fc.oneof(fc.constant('place.crawled'), fc.constantFrom(...PLACE_EVENT_TYPES));
const validEvent = eventType.chain((type) =>
  fc.record({
    eventId: fc.stringMatching(EVENT_ID_PATTERN),
    placeId: fc.stringMatching(PLACE_ID_PATTERN),
    type: fc.constant(type),
    occurredAt: instant,
    schemaVersion: fc.constant(1),
    payload: payloads[type] ?? fc.constant({}),
  }),
);

// Lengths around every limit of the schema (TEXT_LIMITS, the id patterns, the observed lists).
const LENGTHS = [
  0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 199, 200, 201, 319, 320, 321, 499, 500, 501, 999, 1000,
  1001, 2047, 2048, 2049,
];
const COUNTS = [13, 14, 15, 47, 48, 49, 50, 51, 99, 100, 101, 199, 200, 201];
const NUMBERS = [
  -0,
  0,
  -1,
  1.5,
  -90,
  90,
  90.000001,
  -180.5,
  180,
  5,
  5.000001,
  2 ** 53,
  2 ** 53 - 1,
  NaN,
  Infinity,
  1e-9,
];
const ODD_VALUES = [
  null,
  undefined,
  true,
  '',
  'x',
  [],
  {},
  ['x'],
  { a: 1 },
  '2024-05-01',
  1,
  'place.crawled',
];
const ODD_KEYS = ['extra', '__proto__', 'constructor', 'toString', '', '\u0000', '\ud800', 'k'.repeat(201)];

type Container = Record<string, unknown> | unknown[];
type Mutation = (container: Container, key: string) => void;

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // A copy of the value: the constants are shared by every run, and a later mutation that set one inside
  // another slot of the same shared object would make a cycle (the slot walk never leaves it).
  fc.constantFrom(...ODD_VALUES, ...NUMBERS).map(
    (value): Mutation =>
      (container, key) =>
        set(container, key, structuredClone(value)),
  ),
  fc.tuple(fc.constantFrom(...LENGTHS), fc.constantFrom('a', 'A', '0', '🦷', 'é', '-', ':', '\u0000')).map(
    ([length, unit]): Mutation =>
      (container, key) =>
        set(container, key, unit.repeat(length)),
  ),
  fc.constant<Mutation>((container, key) => {
    if (Array.isArray(container)) container.splice(Number(key), 1);
    else delete container[key];
  }),
  fc
    .tuple(fc.constantFrom(...ODD_KEYS), fc.jsonValue({ maxDepth: 1 }))
    .map(([extraKey, value]): Mutation => (container, key) => {
      const target = get(container, key);
      if (typeof target === 'object' && target !== null && !Array.isArray(target))
        Object.defineProperty(target, extraKey, {
          // A copy: fast-check may hand one generated value to two mutations of an event, and the second
          // would then set it inside itself (a cycle, which the slot walk never leaves).
          value: structuredClone(value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }),
  fc.constantFrom('\u0000', '\ud800', '\udc00', '🦷').map((unit): Mutation => (container, key) => {
    const value = get(container, key);
    if (typeof value === 'string') set(container, key, value + unit);
  }),
  fc.constantFrom(...COUNTS).map((count): Mutation => (container, key) => {
    const value = get(container, key);
    if (Array.isArray(value) && value.length > 0)
      set(
        container,
        key,
        Array.from({ length: count }, (): unknown => value[0]),
      );
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && key === 'workingHours')
      set(container, key, Object.fromEntries(Array.from({ length: count }, (_, day) => [`day ${day}`, []])));
  }),
  fc.constantFrom(...PLACE_EVENT_TYPES, 'PLACE.CRAWLED', 'place.deleted').map(
    (type): Mutation =>
      (container, key) =>
        set(container, key, type),
  ),
);

function get(container: Container, key: string): unknown {
  return (container as Record<string, unknown>)[key];
}
function set(container: Container, key: string, value: unknown): void {
  (container as Record<string, unknown>)[key] = value;
}

/** Every (container, key) pair inside a value, the root's own keys included. */
function slots(value: unknown, found: Array<[Container, string]> = []): Array<[Container, string]> {
  if (typeof value !== 'object' || value === null) return found;
  for (const key of Object.keys(value)) {
    found.push([value as Container, key]);
    slots((value as Record<string, unknown>)[key], found);
  }
  return found;
}

const brokenEvent = fc
  .tuple(validEvent, fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 3 }))
  .map(([event, mutations]) => {
    const copy = structuredClone(event) as unknown;
    for (const [index, mutate] of mutations) {
      const all = slots(copy);
      const slot = all[index % all.length];
      if (slot !== undefined) mutate(...slot);
    }
    return copy;
  });

// Every field of `observed` set, so the sweeps reach each one.
const EVERY_OBSERVED_FIELD = {
  ...observedFields(),
  languages: ['de'],
  acceptingNewPatients: true,
  wheelchairAccessible: null,
  insurance: ['gkv'],
};

const FULL_CRAWL = {
  eventId: 'ev-1',
  placeId: 'pl_1',
  type: 'place.crawled',
  occurredAt: '2024-05-01T10:00:00+02:00',
  schemaVersion: 1,
  payload: {
    observed: EVERY_OBSERVED_FIELD,
    crawl: {
      sourceUrl: 'https://a.example',
      crawlId: 'cr-1',
      httpStatus: 200,
      fetchedAt: '2024-05-01T09:59:00.123Z',
      durationMs: 12.5,
      contentHash: 'sha256:1',
    },
  },
};

function expectSameAsZod(raw: unknown): void {
  const fast = parsePlaceEvent(structuredClone(raw));
  const reference = parsePlaceEventWithZod(structuredClone(raw));
  // Node's deep strict equality (prototypes, undefined members); vitest's would also compare the
  // `constructor` of two objects, which a crawl's unknown field named `constructor` turns into data.
  assert.deepStrictEqual(fast, reference);
  // The stored payload is this value as JSON: the keys must come in zod's order too.
  expect(JSON.stringify(fast)).toBe(JSON.stringify(reference));
}

// Thousands of generated events each: more than the default five seconds on a busy machine.
describe('parsePlaceEvent with its compiled fast path', { timeout: 120_000 }, () => {
  it('returns what zod alone returns for valid events, keys in zod’s order', () => {
    fc.assert(fc.property(validEvent, expectSameAsZod), { numRuns: 500 });
  });

  it('returns what zod alone returns, reasons included, for broken events', () => {
    fc.assert(fc.property(brokenEvent, expectSameAsZod), { numRuns: 2000 });
  });

  it('returns what zod alone returns for broken events sent as JSON', () => {
    fc.assert(
      fc.property(brokenEvent, (raw) => expectSameAsZod(JSON.parse(JSON.stringify(raw ?? null)))),
      {
        numRuns: 1000,
      },
    );
  });

  it('returns what zod alone returns for every text field at every length around the limits', () => {
    const textSlots = (event: unknown) =>
      slots(event).filter(([container, key]) => typeof get(container, key) === 'string');
    const count = textSlots(FULL_CRAWL).length;
    expect(count).toBeGreaterThan(20);
    for (let index = 0; index < count; index++) {
      for (const length of LENGTHS) {
        // `length` UTF-16 units; and `length` code points in one unit more (zod counts code points).
        for (const value of [
          'a'.repeat(length),
          '0'.repeat(length),
          `${'a'.repeat(Math.max(length - 1, 0))}🦷`,
        ]) {
          const event = structuredClone(FULL_CRAWL);
          const [container, key] = textSlots(event)[index] as [Container, string];
          set(container, key, value);
          expectSameAsZod(event);
        }
      }
    }
  });

  it('returns what zod alone returns for every list and the working hours at every size around the limits', () => {
    for (const count of COUNTS) {
      const event = structuredClone(FULL_CRAWL);
      for (const [container, key] of slots(event)) {
        const value = get(container, key);
        if (Array.isArray(value))
          set(
            container,
            key,
            Array.from({ length: count }, (): unknown => value[0]),
          );
      }
      expectSameAsZod(event);
      const observed = (event.payload as { observed: Record<string, unknown> }).observed;
      observed.workingHours = Object.fromEntries(
        Array.from({ length: count }, (_, day) => [`day ${day}`, [{ open: '08:00', close: '12:00' }]]),
      );
      expectSameAsZod(event);
    }
  });

  it('takes every valid event itself, so it is not zod under another name', () => {
    const fastPath = compilePlaceEventFastPath();
    fc.assert(
      fc.property(validEvent, (event) => {
        fc.pre(!JSON.stringify(event).includes('"__proto__"'));
        expect(fastPath(structuredClone(event))).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });

  it('counts characters as zod does, and leaves one character over a limit to zod', () => {
    const fastPath = compilePlaceEventFastPath();
    const event = {
      eventId: 'e1',
      placeId: 'p1',
      type: 'place.suppressed',
      occurredAt: '2024-05-01T10:00:00Z',
      schemaVersion: 1,
      payload: { reason: 'a'.repeat(1000) },
    };
    expect(fastPath(event)).toStrictEqual(event);
    // Characters are code points, as zod counts them: 1,000 of them in 1,001 UTF-16 units fit.
    expect(fastPath({ ...event, payload: { reason: `${'a'.repeat(999)}🦷` } })).toBeDefined();
    expect(fastPath({ ...event, payload: { reason: `${'a'.repeat(1000)}🦷` } })).toBeUndefined();
    expect(fastPath({ ...event, payload: { reason: 'a'.repeat(1001) } })).toBeUndefined();
  });
});
