import { z } from 'zod';
import {
  IDS_DESCRIPTION,
  LIMIT_MAX,
  MAX_BATCH_IDS,
  MAX_DOCTOR_ID_LENGTH,
  doctorPageSchema,
  doctorSchema,
  idsParameter,
  recordShapeParamsSchema,
  searchParamsSchema,
  searchResultSchema,
  selectedDoctorPageSchema,
  selectedDoctorSchema,
} from '@directory/domain';

// The domain's allowlisted record, registered once under a component name for the OpenAPI document.
export const doctorComponent = doctorSchema.meta({ ...doctorSchema.meta(), id: 'Doctor' });

// A search record: the Doctor's closed allowlist plus the optional `distanceMeters`. Its own
// component because the Doctor's `additionalProperties: false` cannot be widened by reference.
export const searchResultComponent = searchResultSchema.meta({
  id: 'SearchResult',
  description:
    'A Doctor as search returns it: exactly the Doctor fields, plus `distanceMeters` when the search used `near` (API 1.2)',
});

// The domain's page, with its records referring to that component.
export const doctorPageComponent = doctorPageSchema
  .extend({ doctors: z.array(searchResultComponent).max(LIMIT_MAX) })
  .meta({
    id: 'DoctorPage',
    description:
      'One page of search results, in (folded name, id) order, or (with `near`) by distance, then id',
  });

export const doctorResponseSchema = z
  .strictObject({ doctor: doctorComponent })
  .meta({ id: 'DoctorResponse', description: 'One published record' });

// ---- Records shaped by `fields`, and the batch get. Each route's 200 is a union whose first option is
// the answer to a request using neither (the serializer's default writer); the handler picks the writer
// of another.

export const selectedDoctorComponent = selectedDoctorSchema.meta({
  ...selectedDoctorSchema.meta(),
  id: 'SelectedDoctor',
});

const selectedSearchResultComponent = selectedDoctorPageSchema.shape.doctors.element.meta({
  id: 'SelectedSearchResult',
  description:
    'API 1.2. A search record with only the fields named in `fields` (always `id`), plus `distanceMeters` when the search used `near`',
});

export const selectedDoctorPageComponent = selectedDoctorPageSchema
  .extend({ doctors: z.array(selectedSearchResultComponent).max(LIMIT_MAX) })
  .meta({ id: 'SelectedDoctorPage', description: 'API 1.2. A page of search results shaped by `fields`' });

const missingSchema = z.array(z.string()).max(MAX_BATCH_IDS).meta({
  description:
    'The entries of `ids` (as sent, decoded) that match no served record, in request order, each once',
});

export const doctorBatchComponent = z
  .strictObject({ doctors: z.array(doctorComponent).max(MAX_BATCH_IDS), missing: missingSchema })
  .meta({
    id: 'DoctorBatch',
    description:
      'API 1.2. The answer to `ids`: the records found, each once, in the order first asked for, and the entries that found none',
  });

export const selectedDoctorBatchComponent = z
  .strictObject({ doctors: z.array(selectedDoctorComponent).max(MAX_BATCH_IDS), missing: missingSchema })
  .meta({ id: 'SelectedDoctorBatch', description: 'API 1.2. The answer to `ids` with `fields`' });

export const searchResponseSchema = z.union([
  doctorPageComponent,
  selectedDoctorPageComponent,
  doctorBatchComponent,
  selectedDoctorBatchComponent,
]);

export const selectedDoctorResponseSchema = z
  .strictObject({ doctor: selectedDoctorComponent })
  .meta({ id: 'SelectedDoctorResponse', description: 'API 1.2. One published record shaped by `fields`' });

export const getResponseSchema = z.union([doctorResponseSchema, selectedDoctorResponseSchema]);

// Documentation only: the route validates with the domain's parseDoctorsQuery, which also rejects
// unknown and repeated parameters and reports every bad one at once. `country` is required by a
// search, not by a batch get (`ids`).
export const searchQuerySchema = searchParamsSchema.extend({
  country: searchParamsSchema.shape.country
    .optional()
    .describe(`${searchParamsSchema.shape.country.description ?? ''} Required, except with \`ids\`.`),
  ids: idsParameter.describe(IDS_DESCRIPTION),
});

export const getQuerySchema = recordShapeParamsSchema;

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
