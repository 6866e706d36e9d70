import { describe, expect, it } from 'vitest';
import {
  ADDRESS_KEYS,
  DOCTOR_KEYS,
  doctorSchema,
  LOCATION_KEYS,
  PHONE_RECORD_KEYS,
  toDoctor,
  type Doctor,
} from '../src/places/doctor.js';
import type { Observed } from '../src/events/events.js';
import { initialPlaceState } from '../src/events/place-state.js';
import { observed, PLACE_ID, PUBLICATION, servedState, SITE_ORIGIN } from './fixtures.js';

const doctorOf = (overrides: Partial<Observed> = {}, publication = PUBLICATION): Doctor =>
  toDoctor(servedState(overrides, publication), { siteOrigin: SITE_ORIGIN });

// docs/api.md, The Doctor record, spelled out independently of the source.
const DOCUMENTED_DOCTOR_FIELDS = [
  'id',
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
  'verified',
  'workingHours',
  'profileUrl',
];

describe('doctorSchema', () => {
  it('has exactly the documented fields, and the key lists match the schema', () => {
    expect(Object.keys(doctorSchema.shape).sort()).toEqual([...DOCUMENTED_DOCTOR_FIELDS].sort());
    expect([...DOCTOR_KEYS].sort()).toEqual(Object.keys(doctorSchema.shape).sort());
    expect([...ADDRESS_KEYS].sort()).toEqual(['city', 'country', 'postalCode', 'state', 'street']);
    expect([...LOCATION_KEYS].sort()).toEqual(['latitude', 'longitude']);
    expect([...PHONE_RECORD_KEYS].sort()).toEqual(['number', 'type']);
  });

  it('accepts what toDoctor builds', () => {
    expect(doctorSchema.safeParse(doctorOf()).success).toBe(true);
  });

  it.each<[string, (doctor: Doctor) => unknown]>([
    ['an extra top-level key', (d) => ({ ...d, crawlId: 'c1' })],
    ['an extra address key', (d) => ({ ...d, address: { ...d.address, plusCode: 'x' } })],
    ['an extra location key', (d) => ({ ...d, location: { latitude: 1, longitude: 2, accuracy: 3 } })],
    [
      'an extra phone key',
      (d) => ({ ...d, additionalPhones: [{ number: '+49301234567', type: null, raw: 'x' }] }),
    ],
    ['a missing field', ({ email: _email, ...rest }) => rest],
    [
      'a missing address field',
      (d) => ({ ...d, address: { street: null, city: null, state: null, postalCode: null } }),
    ],
    ['a non-E.164 phone', (d) => ({ ...d, phone: '030 1234567' })],
    [
      '21 additional phones',
      (d) => ({ ...d, additionalPhones: Array(21).fill({ number: '+49301234567', type: null }) }),
    ],
    ['51 specialties', (d) => ({ ...d, specialties: Array(51).fill('x') })],
    ['a javascript: website', (d) => ({ ...d, website: 'javascript:alert(1)' })],
  ])('rejects %s', (_name, change) => {
    expect(doctorSchema.safeParse(change(doctorOf())).success).toBe(false);
  });

  it('documents that whatsappEligible is not consent', () => {
    const description = doctorSchema.shape.whatsappEligible.meta()?.description ?? '';
    expect(description).toMatch(/technical reachability signal only/i);
    expect(description).toMatch(/not consent, an opt-in or permission to send marketing/);
  });
});

describe('toDoctor', () => {
  it('builds the full public record', () => {
    expect(doctorOf()).toEqual({
      id: PLACE_ID,
      name: 'Praxis Dr. Müller',
      legalName: 'Dr. med. Anna Müller',
      address: {
        street: 'Hauptstraße 1',
        city: 'Berlin',
        state: 'Berlin',
        postalCode: '10115',
        country: 'DE',
      },
      location: { latitude: 52.52, longitude: 13.405 },
      phone: '+4915123456789',
      phoneType: 'mobile',
      additionalPhones: [{ number: '+49301234567', type: 'landline' }],
      email: 'praxis@example.de',
      website: 'https://praxis-mueller.example.de/',
      googleMapsUrl: 'https://maps.google.com/?cid=123',
      primaryType: 'Allgemeinmedizin',
      specialties: ['Hausarzt', 'Innere Medizin'],
      rating: 4.6,
      reviewCount: 87,
      whatsappEligible: true,
      verified: false,
      // The source's closed Dienstag (`[]`) is left out: a closed day is never listed.
      workingHours: { Montag: [{ open: '08:00', close: '12:00' }] },
      profileUrl: 'https://site.example/en/doctors/de/berlin/praxis-dr-mueller',
    });
  });

  it('trims text and turns empty text into null', () => {
    const doctor = doctorOf({
      name: '  Praxis  ',
      legalName: '   ',
      primaryType: '',
      address: { street: ' Weg 2 ', city: '\tBerlin\n', state: ' ', postalCode: null, country: null },
    });
    expect(doctor).toMatchObject({
      name: 'Praxis',
      legalName: null,
      primaryType: null,
      address: { street: 'Weg 2', city: 'Berlin', state: null, postalCode: null, country: null },
    });
  });

  it('reads national numbers in the address country first', () => {
    const doctor = doctorOf({
      phone: '612 34 56 78',
      address: { ...observed().address, country: 'ES' },
    });
    expect(doctor.phone).toBe('+34612345678');
  });

  it('falls back to the publication country (gb → GB) when the address has none', () => {
    const doctor = doctorOf(
      { phone: '020 7946 0958', address: { ...observed().address, country: null } },
      { country: 'gb', citySlug: 'london', profileSlug: 'x' },
    );
    expect(doctor.phone).toBe('+442079460958');
  });

  it('drops an unreadable primary phone, its type and WhatsApp eligibility', () => {
    expect(doctorOf({ phone: 'n/a' })).toMatchObject({
      phone: null,
      phoneType: null,
      whatsappEligible: false,
    });
    expect(doctorOf({ phone: null, phoneType: 'mobile' })).toMatchObject({ phone: null, phoneType: null });
  });

  it('keeps additional phones normalized, unique, without the primary, invalid ones dropped', () => {
    const doctor = doctorOf({
      phone: '0151 23456789',
      additionalPhones: [
        { number: '+49 151 23456789', type: 'mobile' },
        { number: '030 1234567', type: 'landline' },
        { number: '(030) 123-4567', type: 'other' },
        { number: 'fax only', type: null },
        { number: '089 123456', type: null },
      ],
    });
    expect(doctor.additionalPhones).toEqual([
      { number: '+49301234567', type: 'landline' },
      { number: '+4989123456', type: null },
    ]);
  });

  it('caps additional phones at 20', () => {
    const additionalPhones = Array.from({ length: 30 }, (_, index) => ({
      number: `030 12345${String(index).padStart(2, '0')}`,
      type: 'landline' as const,
    }));
    const doctor = doctorOf({ additionalPhones });
    expect(doctor.additionalPhones).toHaveLength(20);
    expect(doctor.additionalPhones[19]?.number).toBe('+493012345' + '19');
  });

  it.each([
    ['an eligible mobile', {}, true],
    ['a landline', { phone: '030 1234567', phoneType: 'landline' as const }, false],
    ['an unknown line type', { phoneType: null }, false],
    ['a crawl that found no WhatsApp', { whatsappEligible: false }, false],
    ['an invalid number', { phone: '0000' }, false],
  ])('whatsappEligible for %s is %s', (_name, overrides, expected) => {
    expect(doctorOf(overrides).whatsappEligible).toBe(expected);
  });

  it('keeps only public http(s) links, in parsed form', () => {
    expect(doctorOf({ website: ' https://Praxis.example.DE ' }).website).toBe('https://praxis.example.de/');
    expect(doctorOf({ website: 'http://192.168.0.10/admin' }).website).toBeNull();
    expect(doctorOf({ website: 'javascript:alert(1)' }).website).toBeNull();
    expect(doctorOf({ googleMapsUrl: 'https://user:pw@maps.google.com/' }).googleMapsUrl).toBeNull();
    expect(doctorOf({ googleMapsUrl: 'http://localhost/maps' }).googleMapsUrl).toBeNull();
  });

  it('keeps an email only when it looks like one', () => {
    expect(doctorOf({ email: ' info@praxis.de ' }).email).toBe('info@praxis.de');
    expect(doctorOf({ email: 'info at praxis.de' }).email).toBeNull();
    expect(doctorOf({ email: 'info@localhost' }).email).toBeNull();
    expect(doctorOf({ email: '' }).email).toBeNull();
  });

  it('trims, dedupes and caps specialties', () => {
    expect(
      doctorOf({ specialties: [' Kardiologie ', 'Kardiologie', '', '  ', 'Innere'] }).specialties,
    ).toEqual(['Kardiologie', 'Innere']);
    const many = Array.from({ length: 120 }, (_, index) => `S${index}`);
    const specialties = doctorOf({ specialties: many }).specialties;
    expect(specialties).toHaveLength(50);
    expect(specialties[49]).toBe('S49');
  });

  it('rebuilds working hours without crawl extras, dropping empty labels', () => {
    const workingHours = {
      ' Monday ': [{ open: '08:00', close: '12:00', note: 'internal' }],
      '  ': [{ open: '09:00', close: '10:00' }],
    } as Observed['workingHours'];
    expect(doctorOf({ workingHours }).workingHours).toEqual({ Monday: [{ open: '08:00', close: '12:00' }] });
    expect(doctorOf({ workingHours: {} }).workingHours).toBeNull();
    expect(doctorOf({ workingHours: null }).workingHours).toBeNull();
  });

  it('marks a closed day one way only: not listed, whether the source wrote [] or left it out', () => {
    const open = [{ open: '08:00', close: '12:00' }];
    const withEmptyDays = { Montag: open, Samstag: [], Sonntag: [] };
    const withoutThem = { Montag: open };
    expect(doctorOf({ workingHours: withEmptyDays }).workingHours).toEqual({ Montag: open });
    expect(doctorOf({ workingHours: withoutThem }).workingHours).toEqual({ Montag: open });
    // No open day at all: no published hours.
    expect(doctorOf({ workingHours: { Montag: [], Dienstag: [] } }).workingHours).toBeNull();
    const description = doctorSchema.shape.workingHours.meta()?.description ?? '';
    expect(description).toMatch(/a day that is not listed is closed/);
  });

  it('takes verified from the state', () => {
    const state = { ...servedState(), verified: true };
    expect(toDoctor(state, { siteOrigin: SITE_ORIGIN }).verified).toBe(true);
  });

  it('builds the profile URL from the publication and the site origin', () => {
    const doctor = toDoctor(
      servedState({}, { country: 'pt', citySlug: 'lisboa', profileSlug: 'clinica-1' }),
      {
        siteOrigin: 'http://localhost:3000',
      },
    );
    expect(doctor.profileUrl).toBe('http://localhost:3000/en/doctors/pt/lisboa/clinica-1');
  });

  it('gives empty fields for a place published before its first crawl', () => {
    const state = { ...initialPlaceState(PLACE_ID), published: true, publication: PUBLICATION };
    const doctor = toDoctor(state, { siteOrigin: SITE_ORIGIN });
    expect(doctorSchema.safeParse(doctor).success).toBe(true);
    expect(doctor).toMatchObject({
      name: null,
      phone: null,
      additionalPhones: [],
      specialties: [],
      location: null,
    });
  });

  it('refuses a place that was never published', () => {
    expect(() => toDoctor(initialPlaceState(PLACE_ID), { siteOrigin: SITE_ORIGIN })).toThrow(
      /no publication/,
    );
  });
});
