import { fail, ok, type Result } from '@directory/domain';

/**
 * FHIR resource ids of a served record. A place id is 1-128 characters of A-Z a-z 0-9 _ -; a FHIR id
 * is 1-64 of A-Z a-z 0-9 - . (hl7.org/fhir/R4/datatypes.html#id). `.` never occurs in a place id, so
 * writing `_` as `.` is a bijection: the id is the record's own, readable back without a lookup.
 *
 * The three resources of one record (its Organization, Location and HealthcareService) share that id:
 * FHIR ids are unique within a resource type, and one id for the three keeps every reference between
 * them derivable from the record alone. A place id longer than 64 characters has no FHIR id; such a
 * record is left out of the FHIR directory (none of the datasets' ids comes near: they are 19 long).
 */

export const FHIR_ID_MAX_LENGTH = 64;
const FHIR_ID_PATTERN = /^[A-Za-z0-9.-]{1,64}$/;

/** The FHIR id of a served record; null when its place id is too long to have one. */
export function fhirIdOf(placeId: string): string | null {
  return placeId.length > FHIR_ID_MAX_LENGTH ? null : placeId.replaceAll('_', '.');
}

export const FHIR_ID_REASON = 'must be a FHIR id: 1 to 64 characters of A-Z a-z 0-9 - .';

/** The place id a FHIR id names, or why it names none. */
export function placeIdOf(fhirId: string): Result<string> {
  if (!FHIR_ID_PATTERN.test(fhirId)) return fail(FHIR_ID_REASON);
  return ok(fhirId.replaceAll('.', '_'));
}
