import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOCTOR_EXTRA_KEYS, type DoctorExtras } from '../src/places/doctor-extras.js';
import { DOCTOR_KEYS, toDoctor } from '../src/places/doctor.js';
import {
  PAGE_LANGUAGE_CODES,
  PAGE_LANGUAGES,
  profileUrlIn,
  type PageLanguage,
} from '../src/places/profile-url.js';
import {
  RECORD_FIELD_NAMES,
  needsExtras,
  parseFields,
  parseRecordShape,
  shapeRecord,
} from '../src/requests/record-shape.js';
import { SITE_ORIGIN, servedState } from './fixtures.js';

const DOCTOR = toDoctor(servedState(), { siteOrigin: SITE_ORIGIN });
const EXTRAS: DoctorExtras = {
  specialtyCodes: ['general-practice'],
  openingHours: { timeZone: 'Europe/Berlin', periods: [{ day: 1, open: '08:00', close: '12:00' }] },
  languages: ['de', 'en'],
  acceptingNewPatients: true,
  wheelchairAccessible: false,
  insurance: ['gkv', 'pkv'],
  observedAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  verifiedAt: '2026-01-01T00:00:00.000Z',
};

function fieldsOf(text: string) {
  const parsed = parseFields(text);
  if (!parsed.ok) throw new Error(`expected ${text} to parse: ${parsed.error}`);
  return parsed.value;
}

function reasonOf(text: string): string {
  const parsed = parseFields(text);
  if (parsed.ok) throw new Error(`expected ${text} to be refused`);
  return parsed.error;
}

describe('parseFields', () => {
  it('knows the Doctor fields, then the extras, in schema order', () => {
    expect(RECORD_FIELD_NAMES).toEqual([...DOCTOR_KEYS, ...DOCTOR_EXTRA_KEYS]);
  });

  it('always includes id and returns schema order, whatever the order asked', () => {
    expect(fieldsOf('name')).toEqual(['id', 'name']);
    expect(fieldsOf('openingHours,profileUrl,name,id')).toEqual(['id', 'name', 'profileUrl', 'openingHours']);
    expect(fieldsOf('id')).toEqual(['id']);
  });

  it("reads * as every field, the Doctor's and the extras", () => {
    expect(fieldsOf('*')).toEqual(RECORD_FIELD_NAMES);
  });

  it('refuses empty, unknown, repeated names and * with others, listing the valid names, never echoing input', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /^must name at least one field/],
      ['name,', /^entry 2 is empty/],
      [',name', /^entry 1 is empty/],
      ['name,,id', /^entry 2 is empty/],
      ['name,secretField', /^entry 2 is not a field name/],
      ['Name', /^entry 1 is not a field name.*case-sensitive/],
      ['name, id', /^entry 2 is not a field name/],
      ['address.city', /^entry 1 is not a field name/],
      ['name,name', /^entry 2 repeats a field/],
      ['*,name', /^\* must be given alone/],
      ['name,*', /^\* must be given alone/],
    ];
    for (const [text, reason] of cases) {
      const error = reasonOf(text);
      expect(error, text).toMatch(reason);
      expect(error, text).toContain('id, name, legalName');
      expect(error, text).toContain(`${DOCTOR_EXTRA_KEYS.join(', ')}; or * for all`);
    }
    expect(reasonOf('name,secretField')).not.toContain('secretField');
  });

  it('accepts any set of known names, as that set in schema order with id (property)', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(RECORD_FIELD_NAMES, { minLength: 1 }), (names) => {
        const selected = fieldsOf(names.join(','));
        expect(selected).toEqual(RECORD_FIELD_NAMES.filter((name) => name === 'id' || names.includes(name)));
      }),
    );
  });
});

describe('parseRecordShape (the query string of single get)', () => {
  it('reads fields and lang, lang in any case', () => {
    expect(parseRecordShape({})).toEqual({ ok: true, value: {} });
    expect(parseRecordShape({ fields: 'name', lang: 'DE' })).toEqual({
      ok: true,
      value: { fields: ['id', 'name'], lang: 'de' },
    });
  });

  it('reports every bad parameter at once', () => {
    expect(parseRecordShape({ fields: 'nope', lang: 'nl', limit: '1', fields2: 'x' })).toMatchObject({
      ok: false,
      error: [
        {
          parameter: 'limit',
          reason: expect.stringMatching(/^is not a known parameter \(known: fields, lang;/) as string,
        },
        { parameter: 'fields2', reason: expect.stringMatching(/^is not a known parameter/) as string },
        { parameter: 'fields', reason: expect.stringMatching(/^entry 1 is not a field name/) as string },
        { parameter: 'lang', reason: 'must be one of en, de, es, fr, it, pt' },
      ],
    });
    expect(parseRecordShape({ lang: ['de', 'fr'] })).toMatchObject({
      ok: false,
      error: [{ parameter: 'lang', reason: 'must be given once' }],
    });
  });
});

describe('shapeRecord', () => {
  it('is the stored Doctor itself without fields and lang', () => {
    expect(shapeRecord(DOCTOR, EXTRAS, {})).toBe(DOCTOR);
  });

  it('keeps exactly the selected fields, in schema order, extras only when named', () => {
    const record = shapeRecord(DOCTOR, EXTRAS, { fields: fieldsOf('openingHours,name') });
    expect(Object.keys(record)).toEqual(['id', 'name', 'openingHours']);
    expect(record).toEqual({ id: DOCTOR.id, name: DOCTOR.name, openingHours: EXTRAS.openingHours });
    expect(Object.keys(shapeRecord(DOCTOR, EXTRAS, { fields: fieldsOf('*') }))).toEqual(RECORD_FIELD_NAMES);
    expect(shapeRecord(DOCTOR, EXTRAS, { fields: fieldsOf('*') })).toEqual({ ...DOCTOR, ...EXTRAS });
  });

  it('reads missing extras (a document projected before them) as unknown', () => {
    expect(shapeRecord(DOCTOR, undefined, { fields: fieldsOf('specialtyCodes,openingHours') })).toEqual({
      id: DOCTOR.id,
      specialtyCodes: [],
      openingHours: null,
    });
  });

  it('reads the API 1.3 extras of a document projected before them as unknown, keeping the others', () => {
    const before13 = { specialtyCodes: EXTRAS.specialtyCodes, openingHours: EXTRAS.openingHours };
    const record = shapeRecord(DOCTOR, before13 as DoctorExtras, {
      fields: fieldsOf('specialtyCodes,languages,acceptingNewPatients,wheelchairAccessible,insurance'),
    });
    expect(record).toEqual({
      id: DOCTOR.id,
      specialtyCodes: EXTRAS.specialtyCodes,
      languages: [],
      acceptingNewPatients: null,
      wheelchairAccessible: null,
      insurance: [],
    });
    expect(Object.keys(shapeRecord(DOCTOR, before13 as DoctorExtras, { fields: fieldsOf('*') }))).toEqual(
      RECORD_FIELD_NAMES,
    );
  });

  it('returns the API 1.3 extras only when named', () => {
    expect(shapeRecord(DOCTOR, EXTRAS, { fields: fieldsOf('languages,insurance') })).toEqual({
      id: DOCTOR.id,
      languages: ['de', 'en'],
      insurance: ['gkv', 'pkv'],
    });
    expect(Object.keys(shapeRecord(DOCTOR, EXTRAS, { fields: fieldsOf('name') }))).toEqual(['id', 'name']);
    expect(needsExtras({ fields: fieldsOf('wheelchairAccessible') })).toBe(true);
  });

  it('gives profileUrl in the page language asked, and nothing else changes', () => {
    expect(DOCTOR.profileUrl).toBe('https://site.example/en/doctors/de/berlin/praxis-dr-mueller');
    const german = shapeRecord(DOCTOR, EXTRAS, { lang: 'de' });
    expect(german).toEqual({
      ...DOCTOR,
      profileUrl: 'https://site.example/de/aerzte/de/berlin/praxis-dr-mueller',
    });
    expect(Object.keys(german)).toEqual(DOCTOR_KEYS);
    expect(shapeRecord(DOCTOR, EXTRAS, { lang: 'fr', fields: fieldsOf('profileUrl') })).toEqual({
      id: DOCTOR.id,
      profileUrl: 'https://site.example/fr/medecins/de/berlin/praxis-dr-mueller',
    });
  });

  it('needs the stored extras only when an extra field is selected', () => {
    expect(needsExtras({})).toBe(false);
    expect(needsExtras({ lang: 'de' })).toBe(false);
    expect(needsExtras({ fields: fieldsOf('name,profileUrl') })).toBe(false);
    expect(needsExtras({ fields: fieldsOf('specialtyCodes') })).toBe(true);
    expect(needsExtras({ fields: fieldsOf('*') })).toBe(true);
  });
});

describe('profileUrlIn', () => {
  const url = (lang: PageLanguage, origin = SITE_ORIGIN) =>
    `${origin}/${lang}/${PAGE_LANGUAGES[lang]}/es/san-sebastian/clinica-dental-2`;

  it('swaps language and section, keeps origin (port included) and slugs, from any language to any', () => {
    for (const from of PAGE_LANGUAGE_CODES) {
      for (const to of PAGE_LANGUAGE_CODES) {
        expect(profileUrlIn(url(from), to)).toBe(url(to));
        expect(profileUrlIn(url(from, 'http://localhost:8080'), to)).toBe(url(to, 'http://localhost:8080'));
      }
    }
  });

  it('throws on a stored URL that is not a canonical profile URL (a broken record)', () => {
    expect(() => profileUrlIn('https://site.example/en/about', 'de')).toThrow(/not canonical/);
  });
});
