import { z } from 'zod';
import {
  IDS_DESCRIPTION,
  MAX_IDS_LENGTH,
  RECORD_FIELD_NAMES,
  batchParamsSchema,
  FACET_NAMES,
  LIMIT_MAX,
  MAX_BATCH_IDS,
  MAX_DOCTOR_ID_LENGTH,
  doctorPageSchema,
  doctorSchema,
  recordShapeParamsSchema,
  searchParamsSchema,
  searchResultSchema,
  selectedDoctorPageSchema,
  selectedDoctorSchema,
} from '@directory/domain';

// The domain's allowlisted record, registered once under a component name for the OpenAPI document.
export const doctorComponent = doctorSchema.meta({ ...doctorSchema.meta(), id: 'Doctor' });

// ---- The answers. Each operation documents exactly one 200 schema (code generators merge or wrap an
// `anyOf` of several: typescript-fetch dropped `distanceMeters`, python hid the record behind
// `actual_instance`). `fields` makes a record either the whole Doctor or a selection of it, so the one
// schema is the selected record: `id` required, every other field optional. The writers stay exact:
// each handler picks the writer of the answer it gives (a Doctor's writer without `fields`), so the
// bytes are the ones the full-record schemas below write, as before API 1.3.

const WITHOUT_FIELDS =
  'Without `fields`, every `Doctor` field is present (nullable ones as null) and the extras are absent: exactly the `Doctor` record.';

export const selectedDoctorComponent = selectedDoctorSchema.meta({
  id: 'SelectedDoctor',
  description: `${selectedDoctorSchema.description ?? ''} ${WITHOUT_FIELDS}`,
});

const selectedSearchResultComponent = selectedDoctorPageSchema.shape.doctors.element.meta({
  id: 'SelectedSearchResult',
  description: `A search record. With \`fields\` (API 1.2), only the fields named (always \`id\`). ${WITHOUT_FIELDS} Plus \`distanceMeters\` when the search used \`near\` (API 1.2).`,
});

export const selectedDoctorPageComponent = selectedDoctorPageSchema
  .extend({ doctors: z.array(selectedSearchResultComponent).max(LIMIT_MAX) })
  .meta({
    id: 'SelectedDoctorPage',
    description:
      'One page of search results, in the order `sort` asks for (by default folded name, then id; with `near`, by distance, then id), each record shaped by `fields`',
  });

const missingSchema = z.array(z.string()).max(MAX_BATCH_IDS).meta({
  description:
    'The entries of `ids` (as sent, decoded) that match no served record, in request order, each once',
});

const mergedSchema = z.record(z.string(), z.string()).optional().meta({
  description:
    'API 1.4, present only when some entry of `missing` is the id of a record merged into another (the same practice listed twice): each such id, mapped to the id of the record that survives (the end of a chain of merges). Ask for that id instead.',
});

export const selectedDoctorBatchComponent = z
  .strictObject({
    doctors: z.array(selectedDoctorComponent).max(MAX_BATCH_IDS),
    missing: missingSchema,
    merged: mergedSchema,
  })
  .meta({
    id: 'SelectedDoctorBatch',
    description:
      'API 1.2. The answer to a batch get: the records found, each once, in the order first asked for, each shaped by `fields`, and the entries that found none',
  });

export const selectedDoctorResponseSchema = z
  .strictObject({ doctor: selectedDoctorComponent })
  .meta({ id: 'SelectedDoctorResponse', description: 'One published record, shaped by `fields`' });

/** The 200 of search: one schema (see above). */
export const searchResponseSchema = selectedDoctorPageComponent;
/** The 200 of batch get, both forms. */
export const batchResponseSchema = selectedDoctorBatchComponent;
/** The 200 of single get. */
export const getResponseSchema = selectedDoctorResponseSchema;

// The full-record answers (no `fields`): writers only, no component of the document.

export const doctorPageSchemaForWriter = doctorPageSchema.extend({
  doctors: z.array(searchResultSchema).max(LIMIT_MAX),
});

export const doctorBatchSchemaForWriter = z.strictObject({
  doctors: z.array(doctorSchema).max(MAX_BATCH_IDS),
  missing: missingSchema,
  merged: mergedSchema,
});

export const doctorResponseSchemaForWriter = z.strictObject({ doctor: doctorSchema });

// ---- Inputs. Documentation only: the routes validate with the domain's parsers, which also reject
// unknown and repeated parameters and report every bad one at once. The document describes the query
// strings as generators understand them: lists as arrays sent comma-separated (`style: form`,
// `explode: false`, added by the OpenAPI plugin to every array parameter), closed sets as enums.

/** A schema with examples for the document (tools such as Postman fill requests in with them). */
function withExamples<Schema extends z.ZodType>(schema: Schema, examples: unknown[]): Schema {
  return schema.meta({ ...schema.meta(), description: schema.description, examples });
}

const FIELD_NAMES_AND_ALL = ['*', ...RECORD_FIELD_NAMES] as [string, ...string[]];

const fieldsList = withExamples(
  z
    .array(z.enum(FIELD_NAMES_AND_ALL))
    .min(1)
    .optional()
    .describe(
      `${recordShapeParamsSchema.shape.fields.description ?? ''} Sent as one comma-separated value (\`fields=name,phone\`); \`*\` only alone.`,
    ),
  [['name', 'phone', 'profileUrl']],
);

const idsList = withExamples(
  z
    .array(z.string().min(1).max(MAX_DOCTOR_ID_LENGTH))
    .min(1)
    .max(MAX_BATCH_IDS)
    .describe(
      `Up to ${MAX_BATCH_IDS} doctor ids and/or complete canonical profile URLs (any page language), as one comma-separated value, each entry URL-encoded; at most ${MAX_IDS_LENGTH} characters in all.`,
    ),
  [['de-mueller', 'ChIJ2eUgeAK6j4ARbn5u_wAGqWA']],
);

// "minLng,minLat,maxLng,maxLat" and "lat,lng": decimal degrees (up to 3 integer and 10 fraction digits),
// blanks around a number allowed. The ranges are in the descriptions. A comma ends each number: no
// backtracking.
const DEGREES = String.raw`\s*[+-]?\d{1,3}(?:\.\d{1,10})?\s*`;
const coordinates = (count: number) => new RegExp(`^${DEGREES}${`,${DEGREES}`.repeat(count - 1)}$`);

/** The query string of search, as the document describes it. */
export const searchQuerySchema = searchParamsSchema.extend({
  country: searchParamsSchema.shape.country
    .optional()
    .describe(
      `${searchParamsSchema.shape.country.description ?? ''} Required, except with the deprecated \`ids\`.`,
    ),
  city: withExamples(searchParamsSchema.shape.city, ['berlin']),
  near: withExamples(
    z
      .string()
      .regex(coordinates(2))
      .optional()
      .describe(searchParamsSchema.shape.near.description ?? ''),
    ['52.52,13.405'],
  ),
  bbox: withExamples(
    z
      .string()
      .regex(coordinates(4))
      .optional()
      .describe(searchParamsSchema.shape.bbox.description ?? ''),
    ['13.3,52.4,13.5,52.6'],
  ),
  openAt: withExamples(
    z
      .string()
      .meta({ format: 'date-time' })
      .optional()
      .describe(searchParamsSchema.shape.openAt.description ?? ''),
    ['2026-11-23T09:30:00+01:00'],
  ),
  fields: fieldsList,
  facets: withExamples(
    z
      .array(z.enum(FACET_NAMES))
      .min(1)
      .optional()
      .describe(
        `${searchParamsSchema.shape.facets.description ?? ''} Sent as one comma-separated value (\`facets=specialty,city\`), each name once.`,
      ),
    [['specialty', 'city']],
  ),
  ids: idsList
    .optional()
    .meta({ deprecated: true })
    .describe(
      `Deprecated since API 1.3: use \`GET /api/v1/doctors:batchGet\`, which answers exactly the same. ${IDS_DESCRIPTION} The answer is then a batch (\`SelectedDoctorBatch\`), not a page.`,
    ),
});

/** The query string of batch get. */
export const batchGetQuerySchema = z.object({
  ids: idsList,
  fields: fieldsList,
  lang: batchParamsSchema.shape.lang,
});

export const getQuerySchema = recordShapeParamsSchema.extend({ fields: fieldsList });

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
