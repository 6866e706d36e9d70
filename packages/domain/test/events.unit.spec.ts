import { describe, expect, it } from 'vitest';
import {
  COUNTRY_CODES,
  LIVE_COUNTRY_CODES,
  PLACE_EVENT_TYPES,
  parsePlaceEvent,
  placeEventSchema,
} from '../src/events.js';
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

function reasonFor(raw: unknown): string {
  const result = parsePlaceEvent(raw);
  if (result.ok) throw new Error('expected the event to be rejected');
  return result.reason;
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
    if (result.ok) expect(result.event.type).toBe(type);
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
