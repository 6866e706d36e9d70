import { z } from 'zod';
import { TIME_OF_DAY_PATTERN } from './events.js';
import type { Doctor } from './doctor.js';
import { openingHoursOf } from './opening-hours/opening-hours.js';
import type { PlaceState } from './place-state.js';
import { specialtyCodesOf } from './specialties/vocabulary.js';

/**
 * API 1.2 record fields. They are stored beside the 1.1 record in the search document and returned
 * only when a request names them in `fields=` (or asks for `fields=*`), so a request without `fields`
 * gets the 1.1 record byte for byte. Every field is always present in the extras (null or empty when
 * unknown), like the 1.1 record's fields.
 */

/** ISO 8601 weekday: 1 = Monday … 7 = Sunday. */
export const isoWeekdaySchema = z.number().int().min(1).max(7);

export const openingPeriodSchema = z
  .strictObject({
    day: isoWeekdaySchema.meta({ description: 'ISO weekday the period opens on: 1 = Monday … 7 = Sunday' }),
    open: z
      .string()
      .regex(TIME_OF_DAY_PATTERN)
      .meta({ description: 'Local opening time, HH:MM (00:00 to 23:59)' }),
    close: z.string().regex(TIME_OF_DAY_PATTERN).meta({
      description:
        'Local closing time, HH:MM; 24:00 is the end of the day, and a time at or before `open` closes on the next day (22:00 to 02:00 runs past midnight)',
    }),
  })
  .meta({ description: 'One opening period in the local time of `timeZone`' });

export const openingHoursSchema = z
  .strictObject({
    timeZone: z.string().meta({
      description:
        'IANA time zone of the place, from its dataset country and, where the country has several, its location (e.g. Atlantic/Canary)',
      examples: ['Europe/Berlin'],
    }),
    periods: z.array(openingPeriodSchema),
  })
  .meta({
    description:
      'API 1.2. Opening hours in structured form: ISO weekdays and local times in the place’s IANA time zone. A day without a period is closed. Null when no hours are published or the published day labels cannot be read.',
  });
export type OpeningHours = z.infer<typeof openingHoursSchema>;

export const doctorExtrasSchema = z.strictObject({
  specialtyCodes: z.array(z.string()).meta({
    description:
      'API 1.2. Stable, language-independent codes of the primary type and specialties (see GET /api/v1/specialties): the primary type’s first, then the specialties’ in published order, each once; labels outside the vocabulary have no code.',
  }),
  openingHours: openingHoursSchema.nullable(),
});
export type DoctorExtras = z.infer<typeof doctorExtrasSchema>;
export const DOCTOR_EXTRA_KEYS = doctorExtrasSchema.keyof().options;

/** The extras of a served place, built from the same state as its 1.1 record. */
export function toDoctorExtras(state: PlaceState, doctor: Doctor): DoctorExtras {
  return { specialtyCodes: specialtyCodesOf(doctor), openingHours: openingHoursOf(state, doctor) };
}
