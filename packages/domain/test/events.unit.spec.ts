import { describe, expect, it } from 'vitest';
import {
  COUNTRY_CODES,
  LIVE_COUNTRY_CODES,
  PLACE_EVENT_TYPES,
  TEXT_LIMITS,
  parsePlaceEvent,
  placeEventSchema,
} from '../src/events/events.js';
import type { Observed } from '../src/events/events.js';
import { crawlMetadata, observed } from './fixtures.js';

const envelope = {
  eventId: 'evt-1',
  placeId: 'place_1',
  occurredAt: '2024-05-01T10:00:00Z',
  schemaVersion: 1,
};
const crawled = {
  ...envelope,
  type: 'place.crawled',
  payload: { observed: observed(), crawl: crawlMetadata() },
};

function withName(name: string) {
  return { ...crawled, payload: { ...crawled.payload, observed: observed({ name }) } };
}

function reasonFor(raw: unknown): string {
  const result = parsePlaceEvent(raw);
  if (result.ok) throw new Error('expected the event to be rejected');
  return result.error;
}

describe('parsePlaceEvent', () => {
  it.each([
    ['place.crawled', crawled.payload],
    ['place.published', { country: 'de', citySlug: 'bad-homburg', profileSlug: 'dr-anna-mueller-2' }],
    ['place.unpublished', {}],
    ['place.suppressed', { reason: 'owner request' }],
    ['place.unsuppressed', { reason: 'resolved' }],
    ['place.closed', {}],
    ['place.reopened', {}],
    ['place.verified', {}],
    ['place.unverified', {}],
  ])('accepts a valid %s event', (type, payload) => {
    const result = parsePlaceEvent({ ...envelope, type, payload });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.type).toBe(type);
  });

  it('keeps unknown crawl fields so a new crawler field never dead-letters a crawl', () => {
    const raw = {
      ...crawled,
      payload: {
        observed: { ...observed(), openingNote: 'x', address: { ...observed().address, plusCode: '9F4M' } },
        crawl: { ...crawlMetadata(), proxy: 'p1' },
      },
    };
    const result = parsePlaceEvent(raw);
    expect(result.ok).toBe(true);
  });

  it('accepts offsets in occurredAt and any raw phone format', () => {
    const raw = {
      ...crawled,
      occurredAt: '2024-05-01T12:00:00.123456+02:00',
      payload: { ...crawled.payload, observed: observed({ phone: '(030) 123-45 67 ext. 9' }) },
    };
    expect(parsePlaceEvent(raw).ok).toBe(true);
  });

  it('names the path and the problem', () => {
    const raw = { ...crawled, payload: { ...crawled.payload, observed: observed({ rating: 7 }) } };
    expect(reasonFor(raw)).toBe('payload.observed.rating: Too big: expected number to be <=5');
  });

  it.each([
    ['an unknown type', { ...envelope, type: 'place.deleted', payload: {} }, 'type:'],
    ['an eventId with a space', { ...crawled, eventId: 'evt 1' }, 'eventId:'],
    ['an empty eventId', { ...crawled, eventId: '' }, 'eventId:'],
    ['an eventId over 200 chars', { ...crawled, eventId: 'e'.repeat(201) }, 'eventId:'],
    ['a placeId with a slash', { ...crawled, placeId: 'a/b' }, 'placeId:'],
    ['a placeId over 128 chars', { ...crawled, placeId: 'p'.repeat(129) }, 'placeId:'],
    ['a date without a zone', { ...crawled, occurredAt: '2024-05-01T10:00:00' }, 'occurredAt:'],
    ['an impossible date', { ...crawled, occurredAt: '2024-02-30T10:00:00Z' }, 'occurredAt:'],
    ['schema version 2', { ...crawled, schemaVersion: 2 }, 'schemaVersion:'],
    ['a missing payload', { ...envelope, type: 'place.closed' }, 'payload:'],
    [
      'an unknown dataset code',
      {
        ...envelope,
        type: 'place.published',
        payload: { country: 'uk', citySlug: 'london', profileSlug: 'x' },
      },
      'payload.country:',
    ],
    [
      'an uppercase city slug',
      {
        ...envelope,
        type: 'place.published',
        payload: { country: 'de', citySlug: 'Berlin', profileSlug: 'x' },
      },
      'payload.citySlug:',
    ],
    [
      'a slug with a double hyphen',
      {
        ...envelope,
        type: 'place.published',
        payload: { country: 'de', citySlug: 'a--b', profileSlug: 'x' },
      },
      'payload.citySlug:',
    ],
    [
      'a suppression without reason',
      { ...envelope, type: 'place.suppressed', payload: {} },
      'payload.reason:',
    ],
    [
      'a typo in a publication payload',
      { ...envelope, type: 'place.closed', payload: { closedAt: '2024-01-01' } },
      'payload:',
    ],
    [
      'a lowercase address country',
      {
        ...crawled,
        payload: {
          ...crawled.payload,
          observed: observed({ address: { ...observed().address, country: 'de' } }),
        },
      },
      'payload.observed.address.country:',
    ],
    [
      'a latitude out of range',
      {
        ...crawled,
        payload: { ...crawled.payload, observed: observed({ location: { latitude: 91, longitude: 0 } }) },
      },
      'payload.observed.location.latitude:',
    ],
    [
      'a fractional review count',
      { ...crawled, payload: { ...crawled.payload, observed: observed({ reviewCount: 1.5 }) } },
      'payload.observed.reviewCount:',
    ],
    [
      'more than 50 additional phones',
      {
        ...crawled,
        payload: {
          ...crawled.payload,
          observed: observed({
            additionalPhones: Array.from({ length: 51 }, () => ({ number: '1', type: null })),
          }),
        },
      },
      'payload.observed.additionalPhones:',
    ],
    [
      'more than 200 specialties',
      {
        ...crawled,
        payload: { ...crawled.payload, observed: observed({ specialties: Array(201).fill('x') }) },
      },
      'payload.observed.specialties:',
    ],
    [
      'a bad opening time',
      {
        ...crawled,
        payload: {
          ...crawled.payload,
          observed: observed({ workingHours: { Monday: [{ open: '8:00', close: '25:00' }] } }),
        },
      },
      'payload.observed.workingHours.Monday.0.open:',
    ],
    ['missing crawl metadata', { ...crawled, payload: { observed: observed() } }, 'payload.crawl:'],
    ['a non-object', 42, '(root):'],
  ])('rejects %s', (_name, raw, expectedPath) => {
    expect(reasonFor(raw)).toContain(expectedPath);
  });

  describe('every text field has a maximum (a longer value is bad data, never an index poison)', () => {
    const text = (length: number) => 'x'.repeat(length);
    const slug = (length: number) => 'a'.repeat(length);
    const withObserved = (fields: Partial<Observed>) => ({
      ...crawled,
      payload: { ...crawled.payload, observed: observed(fields) },
    });
    const withAddress = (fields: Partial<Observed['address']>) =>
      withObserved({ address: { ...observed().address, ...fields } });
    const withCrawl = (fields: Record<string, string>) => ({
      ...crawled,
      payload: { ...crawled.payload, crawl: { ...crawlMetadata(), ...fields } },
    });
    const publishedWith = (fields: Record<string, string>) => ({
      ...envelope,
      type: 'place.published',
      payload: { country: 'de', citySlug: 'berlin', profileSlug: 'x', ...fields },
    });
    const cases: Array<[string, number, (length: number) => unknown, string]> = [
      ['name', TEXT_LIMITS.name, (n) => withObserved({ name: text(n) }), 'payload.observed.name'],
      [
        'legalName',
        TEXT_LIMITS.name,
        (n) => withObserved({ legalName: text(n) }),
        'payload.observed.legalName',
      ],
      [
        'street',
        TEXT_LIMITS.addressLine,
        (n) => withAddress({ street: text(n) }),
        'payload.observed.address.street',
      ],
      [
        'city',
        TEXT_LIMITS.addressLine,
        (n) => withAddress({ city: text(n) }),
        'payload.observed.address.city',
      ],
      [
        'state',
        TEXT_LIMITS.addressLine,
        (n) => withAddress({ state: text(n) }),
        'payload.observed.address.state',
      ],
      [
        'postalCode',
        TEXT_LIMITS.postalCode,
        (n) => withAddress({ postalCode: text(n) }),
        'payload.observed.address.postalCode',
      ],
      ['phone', TEXT_LIMITS.phone, (n) => withObserved({ phone: text(n) }), 'payload.observed.phone'],
      [
        'an additional phone',
        TEXT_LIMITS.phone,
        (n) => withObserved({ additionalPhones: [{ number: text(n), type: null }] }),
        'payload.observed.additionalPhones.0.number',
      ],
      ['email', TEXT_LIMITS.email, (n) => withObserved({ email: text(n) }), 'payload.observed.email'],
      ['website', TEXT_LIMITS.url, (n) => withObserved({ website: text(n) }), 'payload.observed.website'],
      [
        'googleMapsUrl',
        TEXT_LIMITS.url,
        (n) => withObserved({ googleMapsUrl: text(n) }),
        'payload.observed.googleMapsUrl',
      ],
      [
        'primaryType',
        TEXT_LIMITS.label,
        (n) => withObserved({ primaryType: text(n) }),
        'payload.observed.primaryType',
      ],
      [
        'a specialty',
        TEXT_LIMITS.label,
        (n) => withObserved({ specialties: [text(n)] }),
        'payload.observed.specialties.0',
      ],
      [
        'a working-hours day',
        TEXT_LIMITS.label,
        (n) => withObserved({ workingHours: { [text(n)]: [] } }),
        'payload.observed.workingHours',
      ],
      ['sourceUrl', TEXT_LIMITS.url, (n) => withCrawl({ sourceUrl: text(n) }), 'payload.crawl.sourceUrl'],
      ['crawlId', TEXT_LIMITS.label, (n) => withCrawl({ crawlId: text(n) }), 'payload.crawl.crawlId'],
      [
        'contentHash',
        TEXT_LIMITS.label,
        (n) => withCrawl({ contentHash: text(n) }),
        'payload.crawl.contentHash',
      ],
      ['citySlug', TEXT_LIMITS.slug, (n) => publishedWith({ citySlug: slug(n) }), 'payload.citySlug'],
      [
        'profileSlug',
        TEXT_LIMITS.slug,
        (n) => publishedWith({ profileSlug: slug(n) }),
        'payload.profileSlug',
      ],
      [
        'a suppression reason',
        TEXT_LIMITS.reason,
        (n) => ({ ...envelope, type: 'place.suppressed', payload: { reason: text(n) } }),
        'payload.reason',
      ],
    ];

    it.each(cases)(
      '%s: accepts %i characters, rejects one more with the path and the limit',
      (_field, max, build, path) => {
        expect(parsePlaceEvent(build(max)).ok).toBe(true);
        const reason = reasonFor(build(max + 1));
        expect(reason).toContain(path);
        // zod reports a too-long record key as an invalid key; the key in the path is cut short.
        if (path.endsWith('workingHours')) expect(reason).toMatch(/x{40}…: Invalid key/);
        else expect(reason).toContain(`at most ${max} characters`);
      },
    );

    it('bounds the number of working-hours days (a record, not a list, so zod has no max of its own)', () => {
      const days = (count: number) =>
        Object.fromEntries(Array.from({ length: count }, (_, day) => [`Day ${day}`, []]));
      expect(parsePlaceEvent(withObserved({ workingHours: days(14) })).ok).toBe(true);
      expect(reasonFor(withObserved({ workingHours: days(15) }))).toBe(
        'payload.observed.workingHours: Expected at most 14 days',
      );
    });

    it('keeps every keyword term the index derives far below its 32,766-byte limit', () => {
      // Four UTF-8 bytes per character at worst; folding can triple a character (e.g. a ligature).
      expect(TEXT_LIMITS.name * 4 * 3).toBeLessThan(32_766);
      expect(TEXT_LIMITS.slug * 4).toBeLessThan(32_766);
    });
  });

  describe('text the store cannot hold is bad data (a dead letter), not a batch that fails forever', () => {
    it.each([
      ['a NUL in the name', withName('Praxis \u0000 Null'), 'payload.observed.name'],
      ['an unpaired high surrogate', withName('Praxis \ud800'), 'payload.observed.name'],
      ['an unpaired low surrogate', withName('\udc00 Praxis'), 'payload.observed.name'],
      [
        'a NUL in an unknown crawl field',
        { ...crawled, payload: { ...crawled.payload, crawl: { ...crawlMetadata(), note: 'a\u0000' } } },
        'payload.crawl.note',
      ],
      [
        'a NUL in a key',
        { ...crawled, payload: { ...crawled.payload, crawl: { ...crawlMetadata(), 'k\u0000': 1 } } },
        'payload.crawl.k\u0000',
      ],
    ])('rejects %s with its path', (_name, raw, path) => {
      expect(reasonFor(raw)).toBe(
        `${path}: Expected text without NUL (\\u0000) or unpaired surrogate characters`,
      );
    });

    it('accepts characters outside the basic plane (a surrogate pair)', () => {
      expect(parsePlaceEvent(withName('Praxis 🦷 Zahn')).ok).toBe(true);
    });
  });

  it('lists at most ten issues and says how many more there were', () => {
    const reason = reasonFor({ ...crawled, payload: { ...crawled.payload, observed: { address: {} } } });
    expect(reason.split('; ')).toHaveLength(11);
    expect(reason).toMatch(/… and \d+ more$/);
  });
});

describe('event type and country lists', () => {
  it('PLACE_EVENT_TYPES lists exactly the types the schema accepts', () => {
    const schemaTypes = placeEventSchema.options.map((option) => option.shape.type.value);
    expect([...PLACE_EVENT_TYPES].sort()).toEqual([...schemaTypes].sort());
  });

  it('has the seven dataset codes, four of them live', () => {
    expect(COUNTRY_CODES).toEqual(['de', 'es', 'fr', 'gb', 'it', 'mx', 'pt']);
    expect(LIVE_COUNTRY_CODES).toEqual(['de', 'es', 'it', 'pt']);
  });
});
