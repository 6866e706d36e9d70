import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDoctor } from '../src/places/doctor.js';
import { toDoctorExtras } from '../src/places/doctor-extras.js';
import { COUNTRY_CODES, type Observed, type Publication } from '../src/events/events.js';
import { openingHoursOf } from '../src/opening-hours/opening-hours.js';
import { COUNTRY_TIME_ZONES, timeZoneOf, type PlaceWhereabouts } from '../src/opening-hours/time-zones.js';
import { WEEKDAY_LABELS, isoWeekdayOf } from '../src/opening-hours/weekday-labels.js';
import { PUBLICATION, servedState, SITE_ORIGIN } from './fixtures.js';

// The day labels the sample datasets write (packages/sample-data/src/locales.ts), Monday first.
const DATASET_DAY_LABELS = {
  de: ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag'],
  es: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'],
  fr: ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'],
  gb: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  it: ['lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato', 'domenica'],
  pt: ['segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira', 'sábado', 'domingo'],
};

describe('weekday labels', () => {
  it.each(Object.entries(DATASET_DAY_LABELS))('reads every day label of the %s dataset', (_, labels) => {
    expect(labels.map(isoWeekdayOf)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('reads every label of the vocabulary, in any case, with or without accents, dots and hyphens', () => {
    for (const week of Object.values(WEEKDAY_LABELS)) {
      week.forEach((labels, index) => {
        for (const label of labels) {
          expect(isoWeekdayOf(label)).toBe(index + 1);
          expect(isoWeekdayOf(` ${label.toUpperCase()}. `)).toBe(index + 1);
        }
      });
    }
    expect(isoWeekdayOf('Mié.')).toBe(3);
    expect(isoWeekdayOf('miercoles')).toBe(3);
    expect(isoWeekdayOf('Terça feira')).toBe(2);
    expect(isoWeekdayOf('lunedi')).toBe(1);
    expect(isoWeekdayOf('SONNABEND')).toBe(6);
  });

  it('reads nothing else', () => {
    for (const label of ['', ' ', 'Feiertag', 'Mo-Fr', 'Montag bis Freitag', 'holidays', 'Mond', '1', 'Lu']) {
      expect(isoWeekdayOf(label)).toBeUndefined();
    }
  });
});

const where = (
  location: { latitude: number; longitude: number } | null,
  postalCode: string | null = null,
  state: string | null = null,
): PlaceWhereabouts => ({ location, address: { postalCode, state } });

describe('time zones', () => {
  it('lists only zones the runtime knows, the main one first, without repeats', () => {
    for (const zones of Object.values(COUNTRY_TIME_ZONES)) {
      expect(new Set(zones).size).toBe(zones.length);
      for (const timeZone of zones) {
        expect(new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone).toBe(timeZone);
      }
    }
    expect(Object.keys(COUNTRY_TIME_ZONES).sort()).toEqual([...COUNTRY_CODES].sort());
  });

  it('gives single-zone datasets their zone wherever the place is', () => {
    const anywhere = where({ latitude: 28.1, longitude: -15.4 }, '35001', 'Baja California');
    expect(timeZoneOf('de', anywhere)).toBe('Europe/Berlin');
    expect(timeZoneOf('it', anywhere)).toBe('Europe/Rome');
    expect(timeZoneOf('fr', anywhere)).toBe('Europe/Paris');
    expect(timeZoneOf('gb', anywhere)).toBe('Europe/London');
  });

  it('places the Canary Islands by location, else by postal code; the location wins', () => {
    expect(timeZoneOf('es', where({ latitude: 28.1235, longitude: -15.4363 }))).toBe('Atlantic/Canary');
    expect(timeZoneOf('es', where({ latitude: 28.4636, longitude: -16.2518 }))).toBe('Atlantic/Canary');
    expect(timeZoneOf('es', where({ latitude: 27.8067, longitude: -17.9158 }))).toBe('Atlantic/Canary');
    expect(timeZoneOf('es', where({ latitude: 40.4168, longitude: -3.7038 }))).toBe('Europe/Madrid');
    expect(timeZoneOf('es', where({ latitude: 35.8894, longitude: -5.3213 }))).toBe('Europe/Madrid');
    expect(timeZoneOf('es', where(null, '35001'))).toBe('Atlantic/Canary');
    expect(timeZoneOf('es', where(null, ' 38001 '))).toBe('Atlantic/Canary');
    expect(timeZoneOf('es', where(null, '28001'))).toBe('Europe/Madrid');
    expect(timeZoneOf('es', where(null, '3500'))).toBe('Europe/Madrid');
    expect(timeZoneOf('es', where(null, null))).toBe('Europe/Madrid');
    expect(timeZoneOf('es', where({ latitude: 40.4168, longitude: -3.7038 }, '35001'))).toBe('Europe/Madrid');
  });

  it('places the Azores and Madeira by location, else by postal code', () => {
    expect(timeZoneOf('pt', where({ latitude: 37.7412, longitude: -25.6756 }))).toBe('Atlantic/Azores');
    expect(timeZoneOf('pt', where({ latitude: 39.4541, longitude: -31.1274 }))).toBe('Atlantic/Azores');
    expect(timeZoneOf('pt', where({ latitude: 32.6669, longitude: -16.9241 }))).toBe('Atlantic/Madeira');
    expect(timeZoneOf('pt', where({ latitude: 33.0833, longitude: -16.3333 }))).toBe('Atlantic/Madeira');
    expect(timeZoneOf('pt', where({ latitude: 38.7223, longitude: -9.1393 }))).toBe('Europe/Lisbon');
    expect(timeZoneOf('pt', where(null, '9000-018'))).toBe('Atlantic/Madeira');
    expect(timeZoneOf('pt', where(null, '9400-161'))).toBe('Atlantic/Madeira');
    expect(timeZoneOf('pt', where(null, '9500-150'))).toBe('Atlantic/Azores');
    expect(timeZoneOf('pt', where(null, '9900'))).toBe('Atlantic/Azores');
    expect(timeZoneOf('pt', where(null, '1000-001'))).toBe('Europe/Lisbon');
    expect(timeZoneOf('pt', where(null, 'PT-9500'))).toBe('Europe/Lisbon');
  });

  it('places Mexican records by state', () => {
    const mx = (state: string | null) =>
      timeZoneOf('mx', where({ latitude: 19.43, longitude: -99.13 }, null, state));
    expect(mx('Baja California')).toBe('America/Tijuana');
    expect(mx('baja california sur')).toBe('America/Mazatlan');
    expect(mx('Sinaloa')).toBe('America/Mazatlan');
    expect(mx('Nayarit')).toBe('America/Mazatlan');
    expect(mx('Sonora')).toBe('America/Hermosillo');
    expect(mx('Chihuahua')).toBe('America/Chihuahua');
    expect(mx('Quintana Roo')).toBe('America/Cancun');
    expect(mx('Ciudad de México')).toBe('America/Mexico_City');
    expect(mx('Yucatán')).toBe('America/Mexico_City');
    expect(mx(null)).toBe('America/Mexico_City');
  });

  it('always answers one of the dataset’s zones', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...COUNTRY_CODES),
        fc.option(
          fc.record({
            latitude: fc.double({ min: -90, max: 90, noNaN: true }),
            longitude: fc.double({ min: -180, max: 180, noNaN: true }),
          }),
        ),
        fc.option(fc.string()),
        fc.option(fc.string()),
        (country, location, postalCode, state) => {
          const zones: readonly string[] = COUNTRY_TIME_ZONES[country];
          expect(zones).toContain(timeZoneOf(country, where(location, postalCode, state)));
        },
      ),
    );
  });
});

describe('openingHoursOf', () => {
  const hoursOf = (workingHours: Observed['workingHours'], publication?: Publication) => {
    const state = servedState({ workingHours }, publication);
    return openingHoursOf(state, toDoctor(state, { siteOrigin: SITE_ORIGIN }));
  };

  it('reads the published hours as ISO weekdays in the place’s zone, sorted, closed days left out', () => {
    expect(
      hoursOf({
        Samstag: [{ open: '09:00', close: '13:00' }],
        Montag: [
          { open: '15:00', close: '18:00' },
          { open: '08:00', close: '12:00' },
        ],
        Dienstag: [],
        Freitag: [{ open: '22:00', close: '02:00' }],
      }),
    ).toEqual({
      timeZone: 'Europe/Berlin',
      periods: [
        { day: 1, open: '08:00', close: '12:00' },
        { day: 1, open: '15:00', close: '18:00' },
        { day: 5, open: '22:00', close: '02:00' },
        { day: 6, open: '09:00', close: '13:00' },
      ],
    });
  });

  it('adds up two labels of one day and drops repeats', () => {
    expect(
      hoursOf({
        Monday: [{ open: '08:00', close: '12:00' }],
        Mon: [
          { open: '08:00', close: '12:00' },
          { open: '14:00', close: '24:00' },
        ],
      })?.periods,
    ).toEqual([
      { day: 1, open: '08:00', close: '12:00' },
      { day: 1, open: '14:00', close: '24:00' },
    ]);
  });

  it('takes the zone from the dataset and the location', () => {
    const canary = servedState(
      {
        workingHours: { lunes: [{ open: '09:00', close: '14:00' }] },
        address: { street: null, city: 'Las Palmas', state: null, postalCode: '35001', country: 'ES' },
        location: { latitude: 28.1235, longitude: -15.4363 },
      },
      { country: 'es', citySlug: 'las-palmas-de-gran-canaria', profileSlug: 'clinica' },
    );
    expect(openingHoursOf(canary, toDoctor(canary, { siteOrigin: SITE_ORIGIN }))).toEqual({
      timeZone: 'Atlantic/Canary',
      periods: [{ day: 1, open: '09:00', close: '14:00' }],
    });
  });

  it('is null without published hours, or when any label or range cannot be read', () => {
    expect(hoursOf(null)).toBeNull();
    expect(hoursOf({ Montag: [], Dienstag: [] })).toBeNull();
    expect(
      hoursOf({ Montag: [{ open: '08:00', close: '12:00' }], Feiertag: [{ open: '10:00', close: '12:00' }] }),
    ).toBeNull();
    expect(hoursOf({ 'Mo-Fr': [{ open: '08:00', close: '12:00' }] })).toBeNull();
    expect(hoursOf({ Montag: [{ open: '24:00', close: '02:00' }] })).toBeNull();
  });

  it('is what the record extras carry', () => {
    const state = servedState({ workingHours: { Montag: [{ open: '08:00', close: '12:00' }] } }, PUBLICATION);
    const doctor = toDoctor(state, { siteOrigin: SITE_ORIGIN });
    expect(toDoctorExtras(state, doctor).openingHours).toEqual({
      timeZone: 'Europe/Berlin',
      periods: [{ day: 1, open: '08:00', close: '12:00' }],
    });
    const closed = servedState({ workingHours: null });
    expect(toDoctorExtras(closed, toDoctor(closed, { siteOrigin: SITE_ORIGIN })).openingHours).toBeNull();
  });
});
