/**
 * The few FHIR R4 shapes this directory serves, written out (the elements we fill, nothing more): a
 * served record becomes an Organization, a Location and a HealthcareService, and the specialty
 * vocabulary a CodeSystem and a ValueSet. Every element name is FHIR R4's (hl7.org/fhir/R4).
 */

export type Coding = { system: string; code: string; display?: string };
export type CodeableConcept = { coding?: Coding[]; text?: string };
export type Reference = { reference: string; display?: string };
export type Identifier = { system: string; value: string };
export type ContactPoint = {
  system: 'phone' | 'email' | 'url';
  value: string;
  use?: 'work' | 'mobile';
  rank?: number;
};
export type Address = {
  use: 'work';
  type: 'physical';
  text?: string;
  line?: string[];
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
};
/** An extension of one value, or (like Plan-Net's newpatients) of nested extensions. */
export type Extension = {
  url: string;
  valueCode?: string;
  valueCodeableConcept?: CodeableConcept;
  extension?: Extension[];
};
/** `tag` only on a resource served in part (`_elements`: SUBSETTED, elements.ts). */
export type Meta = { versionId?: string; lastUpdated?: string; tag?: Coding[] };

export type DayOfWeek = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export type HoursOfOperation = {
  daysOfWeek: DayOfWeek[];
  allDay?: true;
  openingTime?: string;
  closingTime?: string;
};

export type Organization = {
  resourceType: 'Organization';
  id: string;
  meta: Meta;
  identifier: Identifier[];
  active: true;
  name?: string;
  alias?: string[];
  telecom?: ContactPoint[];
  address?: Address[];
};

export type Location = {
  resourceType: 'Location';
  id: string;
  meta: Meta;
  extension?: Extension[];
  identifier: Identifier[];
  status: 'active';
  name?: string;
  alias?: string[];
  mode: 'instance';
  telecom?: ContactPoint[];
  address?: Address;
  position?: { longitude: number; latitude: number };
  managingOrganization: Reference;
  hoursOfOperation?: HoursOfOperation[];
  availabilityExceptions?: string;
};

export type HealthcareService = {
  resourceType: 'HealthcareService';
  id: string;
  meta: Meta;
  extension?: Extension[];
  identifier: Identifier[];
  active: true;
  providedBy: Reference;
  category: CodeableConcept[];
  type?: CodeableConcept[];
  specialty?: CodeableConcept[];
  location: Reference[];
  name?: string;
  telecom?: ContactPoint[];
  communication?: CodeableConcept[];
};

/** The three resource types a served record becomes. */
export type DirectoryResource = Organization | Location | HealthcareService;
export type DirectoryResourceType = DirectoryResource['resourceType'];
export const DIRECTORY_RESOURCE_TYPES = ['Organization', 'Location', 'HealthcareService'] as const;

export type OperationOutcome = {
  resourceType: 'OperationOutcome';
  issue: Array<{
    severity: 'fatal' | 'error' | 'warning' | 'information';
    code: string;
    diagnostics: string;
  }>;
};
