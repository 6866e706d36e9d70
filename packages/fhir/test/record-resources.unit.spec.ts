import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toSearchDocument, type PlaceState } from '@directory/domain';
import { SITE_ORIGIN, placeState } from '@directory/testing';
import {
  PLAN_NET,
  TIME_ZONE_EXTENSION,
  fhirIdOf,
  hoursOfOperationOf,
  placeIdOf,
  specialtyCodeSystem,
  specialtyCodeSystemUrl,
  specialtyValueSet,
  toHealthcareService,
  toLocation,
  toOrganization,
  type ServedRecord,
} from '../src/index.js';
import {
  FHIR_VALIDATOR_LOAD_TIMEOUT_MS,
  fhirValidator,
  type ValidationResult,
} from './support/fhir-validator.js';

/**
 * The mapping of a served record to Organization, Location and HealthcareService: which field goes
 * where, stable derived ids, only allowlisted fields, and every resource valid FHIR R4 (medplum's
 * validator, with Plan-Net's extension definitions).
 */

const options = { siteOrigin: SITE_ORIGIN };
const FHIR_ID = /^[A-Za-z0-9.-]{1,64}$/;

function recordOf(state: PlaceState, version = 7): ServedRecord {
  const document = toSearchDocument(state, options);
  if (!document.served) throw new Error('a fixture record must be served');
  return { doctor: document.doctor, extras: document.extras, version };
}

const madrid = recordOf(
  placeState({
    id: 'pl_madrid01',
    name: 'Clínica Dental Sol',
    legalName: 'Sol Odontología S.L.',
    country: 'es',
    city: 'Madrid',
    citySlug: 'madrid',
    primaryType: 'Dentista',
    specialties: ['Ortodoncia', 'Something unlisted'],
    phone: '+34600123456',
    phoneType: 'mobile',
    location: { latitude: 40.4168, longitude: -3.7038 },
    workingHours: {
      Lunes: [
        { open: '09:00', close: '14:00' },
        { open: '16:00', close: '20:00' },
      ],
      Martes: [{ open: '09:00', close: '14:00' }],
      Sábado: [{ open: '00:00', close: '24:00' }],
    },
    languages: ['es', 'en'],
    acceptingNewPatients: true,
    wheelchairAccessible: true,
    updatedAt: '2026-10-01T08:30:00.000Z',
  }),
);

const bare = recordOf(
  placeState({
    id: 'bare-1',
    name: null,
    city: null,
    postalCode: null,
    location: null,
    workingHours: null,
    primaryType: null,
    acceptingNewPatients: false,
    wheelchairAccessible: false,
  }),
  1,
);

describe('resource ids', () => {
  it('are the record id with _ written as ., and read back to it', () => {
    expect(fhirIdOf('pl_ABC-9')).toBe('pl.ABC-9');
    expect(placeIdOf('pl.ABC-9')).toEqual({ ok: true, value: 'pl_ABC-9' });
    expect(placeIdOf('bad id').ok).toBe(false);
    expect(placeIdOf('x'.repeat(65)).ok).toBe(false);
    expect(fhirIdOf('x'.repeat(65))).toBeNull();
  });

  it('round-trip every place id that fits, and always match the FHIR id pattern', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), (placeId) => {
        const id = fhirIdOf(placeId);
        expect(id).toMatch(FHIR_ID);
        expect(placeIdOf(id ?? '')).toEqual({ ok: true, value: placeId });
      }),
    );
  });
});

describe('Organization', () => {
  it('carries name, legal name as alias, telecom, website and address', () => {
    const organization = toOrganization(madrid);
    expect(organization).toMatchObject({
      resourceType: 'Organization',
      id: 'pl.madrid01',
      meta: { versionId: '7', lastUpdated: '2026-10-01T08:30:00.000Z' },
      active: true,
      name: 'Clínica Dental Sol',
      alias: ['Sol Odontología S.L.'],
      address: [
        {
          use: 'work',
          type: 'physical',
          line: ['Hauptstraße 1'],
          city: 'Madrid',
          postalCode: '10115',
          country: 'ES',
        },
      ],
    });
    expect(organization?.identifier).toEqual([
      { system: 'urn:ietf:rfc:3986', value: madrid.doctor.profileUrl },
    ]);
    expect(organization?.telecom).toEqual([
      { system: 'phone', value: '+34600123456', use: 'mobile', rank: 1 },
      { system: 'email', value: 'praxis@example.com', use: 'work' },
      { system: 'url', value: 'https://praxis.example.com/', use: 'work' },
    ]);
  });

  it('leaves out what the record does not publish', () => {
    const organization = toOrganization(bare);
    expect(organization).not.toHaveProperty('name');
    expect(organization).not.toHaveProperty('alias');
    expect(organization?.address).toEqual([
      { use: 'work', type: 'physical', line: ['Hauptstraße 1'], country: 'DE' },
    ]);
  });
});

describe('Location', () => {
  it('has the position, the managing organization and opening hours with their time zone', () => {
    const location = toLocation(madrid);
    expect(location).toMatchObject({
      resourceType: 'Location',
      id: 'pl.madrid01',
      status: 'active',
      mode: 'instance',
      name: 'Clínica Dental Sol',
      position: { latitude: 40.4168, longitude: -3.7038 },
      managingOrganization: { reference: 'Organization/pl.madrid01' },
    });
    expect(location?.extension).toEqual([
      {
        url: PLAN_NET.accessibility,
        valueCodeableConcept: {
          coding: [
            { system: PLAN_NET.accessibilityCodes, code: 'handiaccess', display: 'handicap accessible' },
          ],
        },
      },
      { url: TIME_ZONE_EXTENSION, valueCode: 'Europe/Madrid' },
    ]);
    expect(location?.hoursOfOperation).toEqual([
      { daysOfWeek: ['mon', 'tue'], openingTime: '09:00:00', closingTime: '14:00:00' },
      { daysOfWeek: ['mon'], openingTime: '16:00:00', closingTime: '20:00:00' },
      { daysOfWeek: ['sat'], allDay: true },
    ]);
    expect(location?.availabilityExceptions).toContain('Europe/Madrid');
  });

  it('without a location, hours or accessibility says nothing of them', () => {
    const location = toLocation(bare);
    expect(location).not.toHaveProperty('position');
    expect(location).not.toHaveProperty('hoursOfOperation');
    expect(location).not.toHaveProperty('extension');
  });

  it('closes a period at the end of the day at 00:00:00 (the next day, as the record reads a closing time at or before the opening)', () => {
    expect(
      hoursOfOperationOf({
        timeZone: 'Europe/Berlin',
        periods: [
          { day: 5, open: '18:00', close: '24:00' },
          { day: 7, open: '22:00', close: '02:00' },
        ],
      }),
    ).toEqual([
      { daysOfWeek: ['fri'], openingTime: '18:00:00', closingTime: '00:00:00' },
      { daysOfWeek: ['sun'], openingTime: '22:00:00', closingTime: '02:00:00' },
    ]);
  });
});

describe('HealthcareService', () => {
  it('codes the specialties, languages and new patients with Plan-Net’s extension', () => {
    const service = toHealthcareService(madrid, options);
    const system = specialtyCodeSystemUrl(SITE_ORIGIN);
    expect(service).toMatchObject({
      resourceType: 'HealthcareService',
      id: 'pl.madrid01',
      active: true,
      providedBy: { reference: 'Organization/pl.madrid01' },
      location: [{ reference: 'Location/pl.madrid01' }],
      category: [
        { coding: [{ system: PLAN_NET.serviceCategory, code: 'dent', display: 'Dental' }], text: 'Dentista' },
      ],
      communication: [
        { coding: [{ system: 'urn:ietf:bcp:47', code: 'en' }] },
        { coding: [{ system: 'urn:ietf:bcp:47', code: 'es' }] },
      ],
    });
    expect(service?.specialty?.map((concept) => concept.coding?.[0])).toEqual([
      { system, code: 'dentistry', display: 'Dentistry' },
      { system, code: 'orthodontics', display: 'Orthodontics' },
    ]);
    expect(service?.extension).toEqual([
      {
        url: PLAN_NET.newPatients,
        extension: [
          {
            url: 'acceptingPatients',
            valueCodeableConcept: {
              coding: [{ system: PLAN_NET.acceptingPatients, code: 'newpt', display: 'Accepting' }],
            },
          },
        ],
      },
    ]);
  });

  it('says "not accepting" when the source says so, and an outpatient category without dental codes', () => {
    const service = toHealthcareService(bare, options);
    expect(service?.extension?.[0]?.extension?.[0]?.valueCodeableConcept?.coding?.[0]?.code).toBe('nopt');
    expect(service?.category[0]?.coding?.[0]?.code).toBe('outpat');
    expect(service).not.toHaveProperty('specialty');
  });
});

describe('the allowlist', () => {
  it('lets nothing through but the record’s published fields', () => {
    const leaky = {
      ...madrid,
      doctor: { ...madrid.doctor, crawlerNote: 'internal-secret', rating: 4.9 },
      extras: { ...madrid.extras, internal: 'internal-secret' },
    } as ServedRecord;
    for (const resource of [toOrganization(leaky), toLocation(leaky), toHealthcareService(leaky, options)]) {
      const text = JSON.stringify(resource);
      expect(text).not.toContain('internal-secret');
      expect(text).not.toContain('4.9');
      expect(text).not.toContain('rating');
    }
  });
});

describe('validation against FHIR R4 and Plan-Net', () => {
  let validate: (resource: object) => ValidationResult;
  beforeAll(async () => {
    validate = await fhirValidator();
  }, FHIR_VALIDATOR_LOAD_TIMEOUT_MS);

  it('every resource of both records validates with 0 errors, and its id matches FHIR’s pattern', () => {
    const resources = [madrid, bare].flatMap((record) => [
      toOrganization(record),
      toLocation(record),
      toHealthcareService(record, options),
    ]);
    for (const resource of [...resources, specialtyCodeSystem(SITE_ORIGIN), specialtyValueSet(SITE_ORIGIN)]) {
      expect(resource).not.toBeNull();
      expect(validate(resource as object).errors, JSON.stringify(resource)).toEqual([]);
      expect((resource as { id: string }).id).toMatch(FHIR_ID);
    }
  });

  it('the validator does find errors (a bad time, a malformed Plan-Net extension)', () => {
    const location = toLocation(madrid);
    expect(
      validate({ ...location, hoursOfOperation: [{ daysOfWeek: ['mon'], openingTime: '24:00:00' }] }).errors,
    ).not.toEqual([]);
    const service = toHealthcareService(madrid, options);
    expect(
      validate({ ...service, extension: [{ url: PLAN_NET.newPatients, valueBoolean: true }] }).errors,
    ).not.toEqual([]);
  });
});
