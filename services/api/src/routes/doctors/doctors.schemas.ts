import { z } from 'zod';
import { LIMIT_MAX, doctorSchema, pageInfoSchema, searchParamsSchema } from '@directory/domain';
import { MAX_DOCTOR_ID_LENGTH } from '@directory/directory';

// The domain's allowlisted record, registered once under a component name for the OpenAPI document.
export const doctorComponent = doctorSchema.meta({ ...doctorSchema.meta(), id: 'Doctor' });

export const doctorPageSchema = z
  .strictObject({
    doctors: z.array(doctorComponent).max(LIMIT_MAX),
    page: pageInfoSchema,
  })
  .meta({ id: 'DoctorPage', description: 'One page of search results, in (folded name, id) order' });

export const doctorResponseSchema = z
  .strictObject({ doctor: doctorComponent })
  .meta({ id: 'DoctorResponse', description: 'One published record' });

// Documentation only: the route validates with the domain's parseSearchParams, which also rejects
// unknown and repeated parameters and reports every bad one at once.
export const searchQuerySchema = searchParamsSchema;

export const doctorParamsSchema = z.object({
  doctorId: z
    .string()
    .max(MAX_DOCTOR_ID_LENGTH)
    .meta({
      description:
        'The stable `id` from a search response, or a complete canonical profile URL of the website (any page language), URL-encoded as a whole. Profile URLs are parsed, never fetched; other hosts, credentials, query strings, fragments and non-profile paths are rejected with 400.',
      examples: [
        'ChIJ2eUgeAK6j4ARbn5u_wAGqWA',
        'https%3A%2F%2Fwww.doctor-directory.example%2Fde%2Faerzte%2Fde%2Fberlin%2Fpraxis-mueller',
      ],
    }),
});
