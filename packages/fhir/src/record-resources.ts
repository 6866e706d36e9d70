import type { OpeningHours } from '@directory/domain';
import type {
  Address,
  CodeableConcept,
  ContactPoint,
  DayOfWeek,
  DirectoryResource,
  DirectoryResourceType,
  Extension,
  HealthcareService,
  HoursOfOperation,
  Identifier,
  Location,
  Meta,
  Organization,
} from './fhir-resources.js';
import { fhirIdOf } from './resource-ids.js';
import type { ServedRecord } from './served-record.js';
import { specialtyConcept } from './specialty-codes.js';

/**
 * A served record as FHIR R4 resources (docs/fhir.md, "Mapping"): the practice or clinic as an
 * Organization, its premises as a Location, and what it offers there as a HealthcareService. Every
 * element is built explicitly from an allowlisted field of the record, as `toDoctor` builds the record
 * itself, so nothing else the stored document might hold can reach a resource. Absent values are left
 * out (FHIR has no nulls).
 */

/** Da Vinci PDex Plan-Net 1.1.0 (CC0), the published extensions and code systems used here. */
export const PLAN_NET = {
  newPatients: 'http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/newpatients',
  acceptingPatients: 'http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/AcceptingPatientsCS',
  accessibility: 'http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/accessibility',
  accessibilityCodes: 'http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/AccessibilityCS',
  serviceCategory: 'http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/HealthcareServiceCategoryCS',
} as const;
/** FHIR's extension for a place's IANA time zone (hl7.fhir.uv.extensions; an element of Location in R5). */
export const TIME_ZONE_EXTENSION = 'http://hl7.org/fhir/StructureDefinition/timezone';
/** Languages are BCP 47 tags (FHIR's `urn:ietf:bcp:47`); ours are ISO 639-1, which are such tags. */
export const LANGUAGE_SYSTEM = 'urn:ietf:bcp:47';
/** A profile URL is the record's public, stable address: an identifier any system can resolve. */
export const URI_SYSTEM = 'urn:ietf:rfc:3986';

const DENTAL_CODES: ReadonlySet<string> = new Set([
  'dentistry',
  'orthodontics',
  'dental-implants',
  'periodontics',
  'endodontics',
  'dental-hygiene',
  'cosmetic-dentistry',
  'pediatric-dentistry',
]);

const WEEKDAYS: readonly DayOfWeek[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export type MappingOptions = { siteOrigin: string };

/** The reference to a record's resource of one type, e.g. `Organization/pl.abc`. */
export function referenceTo(type: DirectoryResourceType, id: string): string {
  return `${type}/${id}`;
}

/** The record's resource of one type; null when the record has no FHIR id (resource-ids.ts). */
export function resourceOf(
  type: DirectoryResourceType,
  record: ServedRecord,
  options: MappingOptions,
): DirectoryResource | null {
  switch (type) {
    case 'Organization':
      return toOrganization(record);
    case 'Location':
      return toLocation(record);
    case 'HealthcareService':
      return toHealthcareService(record, options);
  }
}

export function toOrganization(record: ServedRecord): Organization | null {
  const id = fhirIdOf(record.doctor.id);
  if (id === null) return null;
  const { doctor } = record;
  const name = doctor.name ?? doctor.legalName;
  const alias = doctor.legalName !== null && doctor.legalName !== name ? [doctor.legalName] : [];
  const telecom = telecomOf(record);
  const address = addressOf(record);
  return {
    resourceType: 'Organization',
    id,
    meta: metaOf(record),
    identifier: identifiersOf(record),
    active: true,
    ...(name === null ? {} : { name }),
    ...(alias.length === 0 ? {} : { alias }),
    ...(telecom.length === 0 ? {} : { telecom }),
    ...(address === undefined ? {} : { address: [address] }),
  };
}

export function toLocation(record: ServedRecord): Location | null {
  const id = fhirIdOf(record.doctor.id);
  if (id === null) return null;
  const { doctor, extras } = record;
  const extension: Extension[] = [];
  if (extras.wheelchairAccessible === true) {
    // Plan-Net's accessibility code list has "handicap accessible" and no code for its absence, so a
    // record known not to be accessible says nothing here (as one whose source did not say).
    extension.push({
      url: PLAN_NET.accessibility,
      valueCodeableConcept: {
        coding: [
          { system: PLAN_NET.accessibilityCodes, code: 'handiaccess', display: 'handicap accessible' },
        ],
      },
    });
  }
  if (extras.openingHours !== null) {
    extension.push({ url: TIME_ZONE_EXTENSION, valueCode: extras.openingHours.timeZone });
  }
  const telecom = telecomOf(record);
  const address = addressOf(record);
  const hours = extras.openingHours === null ? [] : hoursOfOperationOf(extras.openingHours);
  return {
    resourceType: 'Location',
    id,
    meta: metaOf(record),
    ...(extension.length === 0 ? {} : { extension }),
    identifier: identifiersOf(record),
    status: 'active',
    ...(doctor.name === null ? {} : { name: doctor.name }),
    ...(doctor.legalName === null || doctor.legalName === doctor.name ? {} : { alias: [doctor.legalName] }),
    mode: 'instance',
    ...(telecom.length === 0 ? {} : { telecom }),
    ...(address === undefined ? {} : { address }),
    ...(doctor.location === null
      ? {}
      : { position: { longitude: doctor.location.longitude, latitude: doctor.location.latitude } }),
    managingOrganization: { reference: referenceTo('Organization', id) },
    ...(hours.length === 0
      ? {}
      : {
          hoursOfOperation: hours,
          availabilityExceptions: `Opening hours are local times in ${extras.openingHours?.timeZone}; a closing time at or before the opening time is on the next day.`,
        }),
  };
}

export function toHealthcareService(record: ServedRecord, options: MappingOptions): HealthcareService | null {
  const id = fhirIdOf(record.doctor.id);
  if (id === null) return null;
  const { doctor, extras } = record;
  const codes = extras.specialtyCodes;
  const specialties = codes.map((code) => specialtyConcept(options.siteOrigin, code));
  const extension: Extension[] = [];
  if (extras.acceptingNewPatients !== null) {
    const [code, display] = extras.acceptingNewPatients ? ['newpt', 'Accepting'] : ['nopt', 'Not Accepting'];
    extension.push({
      url: PLAN_NET.newPatients,
      extension: [
        {
          url: 'acceptingPatients',
          valueCodeableConcept: { coding: [{ system: PLAN_NET.acceptingPatients, code, display }] },
        },
      ],
    });
  }
  const communication: CodeableConcept[] = extras.languages.map((language) => ({
    coding: [{ system: LANGUAGE_SYSTEM, code: language }],
  }));
  const name = doctor.name ?? doctor.legalName;
  const telecom = telecomOf(record);
  return {
    resourceType: 'HealthcareService',
    id,
    meta: metaOf(record),
    ...(extension.length === 0 ? {} : { extension }),
    identifier: identifiersOf(record),
    active: true,
    providedBy: { reference: referenceTo('Organization', id) },
    category: [categoryOf(codes, doctor.primaryType)],
    ...(specialties.length === 0 ? {} : { type: specialties, specialty: specialties }),
    location: [{ reference: referenceTo('Location', id) }],
    ...(name === null ? {} : { name }),
    ...(telecom.length === 0 ? {} : { telecom }),
    ...(communication.length === 0 ? {} : { communication }),
  };
}

function metaOf(record: ServedRecord): Meta {
  return {
    versionId: String(record.version),
    ...(record.extras.updatedAt === null ? {} : { lastUpdated: record.extras.updatedAt }),
  };
}

function identifiersOf(record: ServedRecord): Identifier[] {
  return [{ system: URI_SYSTEM, value: record.doctor.profileUrl }];
}

/** Plan-Net's service category: dental when any code is, else a clinic or outpatient facility. */
function categoryOf(codes: ReadonlyArray<string>, primaryType: string | null): CodeableConcept {
  const dental = codes.some((code) => DENTAL_CODES.has(code));
  const [code, display] = dental ? ['dent', 'Dental'] : ['outpat', 'Clinic or Outpatient Facility'];
  return {
    coding: [{ system: PLAN_NET.serviceCategory, code, display }],
    ...(primaryType === null ? {} : { text: primaryType }),
  };
}

function telecomOf({ doctor }: ServedRecord): ContactPoint[] {
  const telecom: ContactPoint[] = [];
  if (doctor.phone !== null) {
    telecom.push({
      system: 'phone',
      value: doctor.phone,
      use: doctor.phoneType === 'mobile' ? 'mobile' : 'work',
      rank: 1,
    });
  }
  for (const phone of doctor.additionalPhones) {
    telecom.push({ system: 'phone', value: phone.number, use: phone.type === 'mobile' ? 'mobile' : 'work' });
  }
  if (doctor.email !== null) telecom.push({ system: 'email', value: doctor.email, use: 'work' });
  if (doctor.website !== null) telecom.push({ system: 'url', value: doctor.website, use: 'work' });
  return telecom;
}

function addressOf({ doctor }: ServedRecord): Address | undefined {
  const { street, city, state, postalCode, country } = doctor.address;
  if ([street, city, state, postalCode, country].every((part) => part === null)) return undefined;
  return {
    use: 'work',
    type: 'physical',
    ...(street === null ? {} : { line: [street] }),
    ...(city === null ? {} : { city }),
    ...(state === null ? {} : { state }),
    ...(postalCode === null ? {} : { postalCode }),
    ...(country === null ? {} : { country }),
  };
}

/**
 * Structured opening hours as FHIR's: days with the same opening and closing times share one entry.
 * FHIR times have no 24:00, so a period closing at the end of the day closes at 00:00:00, which the
 * record's own rule (a closing time at or before the opening time is on the next day) reads the same;
 * 00:00 to 24:00 is all day.
 */
export function hoursOfOperationOf(hours: OpeningHours): HoursOfOperation[] {
  const byTimes = new Map<string, HoursOfOperation>();
  for (const period of hours.periods) {
    const day = WEEKDAYS[period.day - 1];
    if (day === undefined) continue;
    const allDay = period.open === '00:00' && period.close === '24:00';
    const key = allDay ? 'all-day' : `${period.open}-${period.close}`;
    const entry =
      byTimes.get(key) ??
      (allDay
        ? { daysOfWeek: [], allDay: true as const }
        : {
            daysOfWeek: [],
            openingTime: `${period.open}:00`,
            closingTime: period.close === '24:00' ? '00:00:00' : `${period.close}:00`,
          });
    if (!entry.daysOfWeek.includes(day)) entry.daysOfWeek.push(day);
    byTimes.set(key, entry);
  }
  return [...byTimes.values()];
}
