import { z } from 'zod';
import { doctorSchema } from './doctor.js';
import { CURSOR_MAX_LENGTH, LIMIT_MAX } from './search-params.js';

/** The `page` object of a DoctorPage (SPEC §2), shared by the OpenAPI document and the MCP output schema. */
export const pageInfoSchema = z.strictObject({
  count: z.number().int().min(0).max(LIMIT_MAX).meta({ description: 'Records in this page' }),
  hasMore: z.boolean().meta({ description: 'Whether more pages follow' }),
  nextCursor: z.string().max(CURSOR_MAX_LENGTH).nullable().meta({
    description:
      'Opaque, signed cursor for the next page (send it as `cursor` with the same filters); null when there is no next page',
  }),
});

/** One page of search results, as served by `GET /api/v1/doctors` and the MCP tool `search_doctors`. */
export const doctorPageSchema = z.strictObject({
  doctors: z.array(doctorSchema).max(LIMIT_MAX),
  page: pageInfoSchema,
});
