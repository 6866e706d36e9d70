import { z } from 'zod';
import type { Doctor } from './doctor.js';
import { openingHoursOf } from '../opening-hours/opening-hours.js';
import { openingHoursSchema } from '../opening-hours/opening-hours-schema.js';
import { patientAttributesOf, patientAttributesSchema } from '../events/patient-attributes.js';
import type { PlaceState } from '../events/place-state.js';
import { specialtyCodesOf } from './specialty-vocabulary.js';

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
  // API 1.3 provenance: how fresh the record is, folded from its events (place-fold.ts), so a replay
  // gives the same values.
  observedAt: z.iso.datetime().nullable().meta({
    description:
      'API 1.3. When the latest crawl that saw this record was made (UTC): the freshness of its contact and practice data.',
  }),
  updatedAt: z.iso.datetime().nullable().meta({
    description:
      'API 1.3. When the record’s public fields last changed (UTC): a crawl that found everything as it was, or a change of whether it is served, leaves it as it is. `updatedSince` filters on it.',
  }),
  verifiedAt: z.iso.datetime().nullable().meta({
    description: 'API 1.3. When `verified` last became true (UTC); null while the listing is not verified.',
  }),
});
export type DoctorExtras = z.infer<typeof doctorExtrasSchema>;
export const DOCTOR_EXTRA_KEYS = doctorExtrasSchema.keyof().options;

/**
 * The extras of a served place, built from the same state as its Doctor record (the content extras too,
 * unless the caller built them already).
 */
export function toDoctorExtras(
  state: PlaceState,
  doctor: Doctor,
  contentExtras: ContentExtras = contentExtrasOf(state, doctor),
): DoctorExtras {
  return {
    ...contentExtras,
    observedAt: instantText(state.observedAt),
    updatedAt: instantText(state.updatedAt),
    verifiedAt: instantText(state.verifiedAt),
  };
}

/** The extras that are the record's content (all but the provenance): what "public fields" include. */
export type ContentExtras = Omit<DoctorExtras, 'observedAt' | 'updatedAt' | 'verifiedAt'>;

export function contentExtrasOf(state: PlaceState, doctor: Doctor): ContentExtras {
  return {
    specialtyCodes: specialtyCodesOf(doctor),
    openingHours: openingHoursOf(state, doctor),
    // Insurance codes are the dataset's own; a place without a publication is never served anyway.
    ...patientAttributesOf(state.observed ?? {}, state.publication?.country ?? ''),
  };
}

/** An event's `occurredAt` as the API writes instants: UTC with milliseconds (events may carry offsets). */
export function instantText(occurredAt: string | null): string | null {
  return occurredAt === null ? null : new Date(Date.parse(occurredAt)).toISOString();
}
