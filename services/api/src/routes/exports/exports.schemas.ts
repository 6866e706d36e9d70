import { z } from 'zod';
import { CURSOR_MAX_LENGTH, exportPathSchema, exportQuerySchema } from '@directory/domain';
import { doctorComponent } from '../doctors/doctors.schemas.js';

/** The media type of an export's body: one JSON value per line. */
export const NDJSON = 'application/x-ndjson';

// Open, like every response object (clients ignore fields they do not know).
export const exportTrailerSchema = z
  .looseObject({
    export: z.looseObject({
      country: z.string().meta({ description: 'The dataset exported (lower case)' }),
      records: z
        .number()
        .int()
        .min(0)
        .meta({ description: 'Records sent in this response (lines before this one)' }),
      complete: z.boolean().meta({
        description:
          'true: every record of the snapshot after `after` was sent. false: the export stopped early (see `reason`); resume it with `resume` and `after`',
      }),
      reason: z
        .string()
        .optional()
        .meta({ description: 'Only when not complete: why the export stopped, and when to resume it' }),
      changesCursor: z.string().max(CURSOR_MAX_LENGTH).meta({
        description:
          'Send it as `since` to `GET /api/v1/changes` (same country) for every change after this snapshot; equal to the `Changes-Cursor` header',
      }),
    }),
  })
  .meta({
    id: 'ExportTrailer',
    description: 'The last line of an export: where the changes feed takes over',
  });

/** One line of the body: a record (as search returns it), or the trailer that ends the export. */
export const exportLineSchema = z
  .union([doctorComponent, exportTrailerSchema])
  // A component: an operation's success schema is always one `$ref` (the union lives in components).
  .meta({
    id: 'ExportLine',
    description: 'One NDJSON line: a Doctor record, or the ExportTrailer as the last line',
  });

/**
 * The documented response headers of a 200, as JSON Schemas with a description (@fastify/swagger makes
 * them header objects; the OpenAPI document adds those every answer carries).
 */
export const EXPORT_HEADERS = {
  'Changes-Cursor': {
    description:
      'The changes-feed cursor that follows this snapshot (as in the trailer), known before the first record: send it as `since` to `GET /api/v1/changes`',
    type: 'string',
  },
  'Export-Resume': {
    description:
      'Resumes this export (same snapshot, same cursor) after a dropped connection: send it as `resume`, with the last `id` received as `after`',
    type: 'string',
  },
  'Content-Encoding': {
    description: '`gzip` when the request accepted it (Accept-Encoding); absent otherwise',
    type: 'string',
    examples: ['gzip'],
  },
};

// Documentation only: the route validates with the domain's parseExportParams, which also rejects
// unknown and repeated parameters and reports every bad one at once.
export const exportParamsSchema = exportPathSchema;
export const exportQuerystringSchema = exportQuerySchema;
