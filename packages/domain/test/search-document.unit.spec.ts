import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_KEYS,
  DOCTOR_KEYS,
  doctorSchema,
  LOCATION_KEYS,
  PHONE_RECORD_KEYS,
  toDoctor,
} from '../src/places/doctor.js';
import { placeEventSchema } from '../src/events/events.js';
import { foldText } from '../src/shared/text.js';
import { foldPlace } from '../src/places/place-fold.js';
import type { PlaceState } from '../src/events/place-state.js';
import { SORT_NAME_MAX_CODE_POINTS } from '../src/requests/page-bounds.js';
import {
  SEARCH_DOCUMENT_MAPPING,
  postalCodeKey,
  sortNameOf,
  toSearchDocument,
  type SearchDocument,
} from '../src/search/search-document.js';
import { crawlMetadata, makeEvent, PLACE_ID, PUBLICATION, servedState, SITE_ORIGIN } from './fixtures.js';

const options = { siteOrigin: SITE_ORIGIN };

function served(state: PlaceState): SearchDocument {
  const document = toSearchDocument(state, options);
  if (!document.served) throw new Error('expected a served document');
  return document;
}

describe('toSearchDocument', () => {
  it('holds the Doctor exactly as served plus the search fields', () => {
    const state = servedState({
      name: 'Praxis Dr. Müller',
      legalName: 'Müller GmbH',
      address: { street: null, city: 'München', state: null, postalCode: null, country: 'DE' },
      primaryType: 'Allgemeinmedizin',
      specialties: ['Kinderheilkunde', 'Ärztlicher Notdienst'],
    });
    const document = served(state);
    expect(document.doctor).toEqual(toDoctor(state, options));
    expect(document).toMatchObject({
      served: true,
      placeId: PLACE_ID,
      country: 'de',
      citySlug: 'berlin',
      profileSlug: 'praxis-dr-mueller',
      whatsappEligible: true,
      verified: false,
      sortName: 'praxis dr. muller',
      searchText:
        'praxis dr. muller muller gmbh munchen allgemeinmedizin kinderheilkunde arztlicher notdienst',
      // The primary type's code first; "Ärztlicher Notdienst" is not in the vocabulary.
      specialtyCodes: ['general-practice', 'pediatrics'],
    });
    expect(document.extras.specialtyCodes).toEqual(document.specialtyCodes);
  });

  it('sorts by the legal name when there is no name, and by "" when there is neither', () => {
    expect(served(servedState({ name: null, legalName: 'Ábaco Clínica' })).sortName).toBe('abaco clinica');
    expect(served(servedState({ name: '  ', legalName: null })).sortName).toBe('');
  });

  it('keeps the first 200 code points of the folded name as the sort key, never splitting a pair', () => {
    expect(SORT_NAME_MAX_CODE_POINTS).toBe(200);
    const long = served(servedState({ name: `Ärztehaus ${'Ü'.repeat(300)}` })).sortName;
    expect(long).toBe(`arztehaus ${'u'.repeat(190)}`);
    const emoji = served(servedState({ name: '\u{1F600}'.repeat(300) })).sortName;
    expect(Array.from(emoji)).toEqual(Array(200).fill('\u{1F600}'));
    expect(sortNameOf('  Praxis  Dr.  Müller ')).toBe('praxis dr. muller');
    // 150 code points in 300 UTF-16 units: past the short-name shortcut, under the limit, kept whole.
    expect(sortNameOf('\u{1F600}'.repeat(150))).toBe('\u{1F600}'.repeat(150));
  });

  it('is the first 200 code points of the folded name for any name, short or long', () => {
    const unit = fc.constantFrom('a', 'Ü', 'ß', ' ', '\u{1F600}', '\u0301');
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit, minLength: 150, maxLength: 450 })),
        (name) => {
          expect(sortNameOf(name)).toBe(
            Array.from(foldText(name)).slice(0, SORT_NAME_MAX_CODE_POINTS).join(''),
          );
        },
      ),
    );
  });

  it('keeps the display and legal names exactly as published (NFC) for name:exact', () => {
    const both = served(servedState({ name: 'Cli\u0301nica SOL', legalName: 'Sol Odontología S.L.' }));
    expect(both).toMatchObject({ nameExact: 'Clínica SOL', legalNameExact: 'Sol Odontología S.L.' });
    expect(both.nameExact).toBe(both.doctor.name?.normalize('NFC'));
    // Without a name, the display name is the legal name (as Organization.name and HealthcareService.name).
    const legalOnly = served(servedState({ name: null, legalName: 'Ábaco Clínica' }));
    expect(legalOnly).toMatchObject({ nameExact: 'Ábaco Clínica', legalNameExact: 'Ábaco Clínica' });
    expect(served(servedState({ name: ' ', legalName: null }))).toMatchObject({
      nameExact: null,
      legalNameExact: null,
    });
  });

  it('keys the postal code folded, without spaces or punctuation; none without one', () => {
    const address = { street: null, city: null, state: null, country: null };
    const keyOf = (postalCode: string | null) =>
      served(servedState({ address: { ...address, postalCode } })).postalCode;
    expect(keyOf('SW1A 1AA')).toBe('sw1a1aa');
    expect(keyOf('00-950')).toBe('00950');
    expect(keyOf('28001')).toBe('28001');
    expect(keyOf(null)).toBeNull();
    expect(keyOf('-')).toBeNull();
    expect(postalCodeKey(' É-1 ')).toBe('e1');
  });

  it('keys each part of the address folded for the address search, once each, none when empty', () => {
    const document = served(
      servedState({
        address: {
          street: 'Calle  Mayor 5',
          city: 'Málaga',
          state: 'Málaga',
          postalCode: '29001',
          country: 'ES',
        },
      }),
    );
    expect(document.addressKeys).toEqual(['calle mayor 5', 'malaga', '29001', 'es']);
    const empty = { street: null, city: ' ', state: null, postalCode: null, country: null };
    expect(served(servedState({ address: empty })).addressKeys).toEqual([]);
  });

  it('skips missing fields in the search text', () => {
    const state = servedState({
      name: null,
      legalName: null,
      address: { street: null, city: null, state: null, postalCode: null, country: null },
      primaryType: 'Zahnarzt',
      specialties: [],
    });
    expect(served(state).searchText).toBe('zahnarzt');
  });

  it('copies filters from the Doctor so they cannot disagree', () => {
    const document = served({ ...servedState({ phoneType: 'landline' }), verified: true });
    expect(document.whatsappEligible).toBe(false);
    expect(document.verified).toBe(true);
    expect(document.doctor.verified).toBe(true);
  });

  it('indexes the structured opening hours as local minute-of-week ranges with their zone', () => {
    const document = served(
      servedState({
        workingHours: {
          Montag: [{ open: '08:00', close: '12:00' }],
          Sonntag: [{ open: '22:00', close: '02:00' }],
        },
      }),
    );
    expect(document.extras.openingHours).toEqual({
      timeZone: 'Europe/Berlin',
      periods: [
        { day: 1, open: '08:00', close: '12:00' },
        { day: 7, open: '22:00', close: '02:00' },
      ],
    });
    expect(document.timeZone).toBe('Europe/Berlin');
    expect(document.openRanges).toEqual([
      { gte: 0, lt: 120 },
      { gte: 480, lt: 720 },
      { gte: 6 * 1440 + 22 * 60, lt: 7 * 1440 },
    ]);
    // Without structured hours: nothing to match, so openAt and openNow never find the record.
    for (const workingHours of [null, { Feiertag: [{ open: '10:00', close: '12:00' }] }]) {
      const without = served(servedState({ workingHours }));
      expect(without.extras.openingHours).toBeNull();
      expect(without.openRanges).toEqual([]);
      expect(without.timeZone).toBeNull();
    }
  });

  it.each<[string, (state: PlaceState) => PlaceState]>([
    ['unpublished', (s) => ({ ...s, published: false })],
    ['suppressed', (s) => ({ ...s, suppressedReason: 'legal' })],
    ['closed', (s) => ({ ...s, closed: true })],
    ['never crawled', (s) => ({ ...s, observed: null })],
  ])('is a bare tombstone when the place is %s', (_name, change) => {
    expect(toSearchDocument(change(servedState()), options)).toStrictEqual({
      served: false,
      placeId: PLACE_ID,
    });
  });

  it('never carries crawl metadata', () => {
    const serialized = JSON.stringify(toSearchDocument(servedState(), options));
    for (const value of Object.values(crawlMetadata())) expect(serialized).not.toContain(String(value));
  });
});

const MARKER = 'leak-7f3a9c-marker';
const junkKey = fc.oneof(
  fc.constantFrom(
    'crawlId',
    'sourceUrl',
    'httpStatus',
    'contentHash',
    'fetchedAt',
    'internalNotes',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    '_id',
    '_source',
    'served',
    'sortName',
  ),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const junkValue = fc.oneof(
  fc.constant(MARKER),
  fc.constant({ nested: { deeper: MARKER } }),
  fc.constant([MARKER, { inArray: MARKER }]),
);
// Object.fromEntries defines own properties, so "__proto__" stays a real key, as JSON.parse would make it.
const junk = fc
  .array(fc.tuple(junkKey, junkValue), { maxLength: 4 })
  .map((entries) => Object.fromEntries(entries));
const withJunk = <T extends object>(arbitrary: fc.Arbitrary<T>) =>
  fc.tuple(junk, arbitrary).map(([extra, value]): T => ({ ...extra, ...value }));

const text = fc.option(fc.string({ maxLength: 20 }));
const phoneish = fc.oneof(
  fc.constantFrom('030 1234567', '+49 151 23456789', '612 34 56 78', '020 7946 0958', '0', '+1 202 555 0100'),
  fc.string({ maxLength: 20 }),
);
const phoneType = fc.option(fc.constantFrom('mobile' as const, 'landline' as const, 'other' as const));
const link = fc.option(
  fc.oneof(
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.constantFrom(
      'http://localhost/',
      'javascript:alert(1)',
      'https://u:p@example.com/',
      'http://10.0.0.1/',
    ),
    fc.string({ maxLength: 20 }),
  ),
);
// Day labels are public data, so odd ones must stay plain keys rather than touch the prototype.
const dayLabel = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.constantFrom('Monday', 'Montag', '__proto__', 'constructor'),
);
const time = fc.constantFrom('00:00', '08:30', '12:00', '23:59', '24:00');

const observedArbitrary = withJunk(
  fc.record({
    name: text,
    legalName: text,
    address: withJunk(
      fc.record({
        street: text,
        city: text,
        state: text,
        postalCode: text,
        country: fc.option(fc.constantFrom('DE', 'ES', 'GB', 'PT', 'XX')),
      }),
    ),
    location: fc.option(
      withJunk(
        fc.record({
          latitude: fc.double({ min: -90, max: 90, noNaN: true }),
          longitude: fc.double({ min: -180, max: 180, noNaN: true }),
        }),
      ),
    ),
    phone: fc.option(phoneish),
    phoneType,
    additionalPhones: fc.array(withJunk(fc.record({ number: phoneish, type: phoneType })), { maxLength: 50 }),
    email: fc.option(fc.oneof(fc.emailAddress(), fc.string({ maxLength: 20 }))),
    website: link,
    googleMapsUrl: link,
    primaryType: text,
    specialties: fc.array(fc.string({ maxLength: 12 }), { maxLength: 200 }),
    rating: fc.option(fc.double({ min: 0, max: 5, noNaN: true })),
    reviewCount: fc.option(fc.nat()),
    whatsappEligible: fc.boolean(),
    workingHours: fc.option(
      fc.dictionary(dayLabel, fc.array(withJunk(fc.record({ open: time, close: time })), { maxLength: 3 })),
    ),
  }),
);

function expectOnlyKeys(value: object, allowed: ReadonlyArray<string>): void {
  // A prototype other than Object.prototype would mean a "__proto__" key was assigned, not defined.
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  expect(Reflect.ownKeys(value).sort()).toEqual([...allowed].sort());
}

function expectAllowlisted(document: SearchDocument): void {
  expectOnlyKeys(document, Object.keys(SEARCH_DOCUMENT_MAPPING.properties));
  const { doctor } = document;
  expectOnlyKeys(doctor, DOCTOR_KEYS);
  expectOnlyKeys(doctor.address, ADDRESS_KEYS);
  if (doctor.location !== null) expectOnlyKeys(doctor.location, LOCATION_KEYS);
  for (const phone of doctor.additionalPhones) expectOnlyKeys(phone, PHONE_RECORD_KEYS);
  if (doctor.workingHours !== null) expect(Object.getPrototypeOf(doctor.workingHours)).toBe(Object.prototype);
  for (const ranges of Object.values(doctor.workingHours ?? {})) {
    for (const range of ranges) expectOnlyKeys(range, ['open', 'close']);
  }
  expect(JSON.stringify(document)).not.toContain(MARKER);
  expect(doctorSchema.safeParse(doctor).success).toBe(true);
}

// 300 folds of random crawls take about 2 s alone and past vitest's 5 s when both cores are busy.
describe('search document allowlist law', { timeout: 30_000 }, () => {
  it('never emits a key outside the allowlist, whatever a crawl carries', () => {
    fc.assert(
      fc.property(observedArbitrary, junk, junk, (crawledObserved, crawlExtra, payloadExtra) => {
        const crawled = makeEvent(
          'place.crawled',
          { ...payloadExtra, observed: crawledObserved, crawl: { ...crawlExtra, ...crawlMetadata() } },
          { eventId: 'e1', occurredAt: '2024-05-01T10:00:00Z', position: 1 },
        );
        const published = makeEvent('place.published', PUBLICATION, {
          eventId: 'e2',
          occurredAt: '2024-05-01T11:00:00Z',
          position: 2,
        });
        // Both as the fold sees raw objects and as they come out of validation.
        const raw = foldPlace(PLACE_ID, [crawled, published]);
        const validated = foldPlace(PLACE_ID, [
          { ...placeEventSchema.parse(crawled), position: 1 },
          { ...placeEventSchema.parse(published), position: 2 },
        ]);
        for (const state of [raw, validated]) expectAllowlisted(served(state));
      }),
      { numRuns: 300 },
    );
  });
});
