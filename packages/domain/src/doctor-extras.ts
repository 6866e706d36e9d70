import { z } from 'zod';
import type { Doctor } from './doctor.js';
import { openingHoursOf } from './opening-hours/opening-hours.js';
import { openingHoursSchema } from './opening-hours/opening-hours-schema.js';
import { patientAttributesOf, patientAttributesSchema } from './patient-attributes.js';
import type { PlaceState } from './place-state.js';
import { specialtyCodesOf } from './specialties/vocabulary.js';

/**
 * The record's extra fields. They are stored beside the Doctor record in the search document and
 * returned only when a request names them in `fields=` (or asks for `fields=*`), so a request without
 * `fields` gets the Doctor record byte for byte (docs/api.md, Compatibility). Every field is always
 * present in the extras (null or empty when unknown), like the Doctor record's fields.
 */

export const doctorExtrasSchema = z.strictObject({
  specialtyCodes: z.array(z.string()).meta({
    description:
      'API 1.2. Stable, language-independent codes of the primary type and specialties (see GET /api/v1/specialties): the primary type’s first, then the specialties’ in published order, each once; labels outside the vocabulary have no code.',
  }),
  openingHours: openingHoursSchema.nullable(),
  // API 1.3: languages, acceptingNewPatients, wheelchairAccessible, insurance (patient-attributes.ts).
  ...patientAttributesSchema.shape,
});
export type DoctorExtras = z.infer<typeof doctorExtrasSchema>;
export const DOCTOR_EXTRA_KEYS = doctorExtrasSchema.keyof().options;

/** The extras of a served place, built from the same state as its Doctor record. */
export function toDoctorExtras(state: PlaceState, doctor: Doctor): DoctorExtras {
  return {
    specialtyCodes: specialtyCodesOf(doctor),
    openingHours: openingHoursOf(state, doctor),
    // Insurance codes are the dataset's own; a place without a publication is never served anyway.
    ...patientAttributesOf(state.observed ?? {}, state.publication?.country ?? ''),
  };
}
