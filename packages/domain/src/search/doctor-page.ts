import { z } from 'zod';
import { doctorSchema } from '../places/doctor.js';
import { selectedDoctorSchema } from '../requests/record-shape.js';
import { CURSOR_MAX_LENGTH, LIMIT_MAX } from '../requests/page-bounds.js';
import { TOTAL_EXACT_UP_TO } from './search-order.js';
import { facetsSchema, type Facets } from './facets.js';
import { searchSuggestionsSchema, type SearchSuggestion } from './search-suggestion.js';

/**
 * The `page` object of a DoctorPage (docs/api.md, `GET /api/v1/doctors` — search), shared by the OpenAPI
 * document and the MCP output schema.
 */
export const pageInfoSchema = z.strictObject({
  count: z.number().int().min(0).max(LIMIT_MAX).meta({ description: 'Records in this page' }),
  hasMore: z.boolean().meta({ description: 'Whether more pages follow' }),
  nextCursor: z.string().max(CURSOR_MAX_LENGTH).nullable().meta({
    description:
      'Opaque, signed cursor for the next page (send it as `cursor` with the same filters); null when there is no next page',
  }),
  total: z
    .number()
    .int()
    .min(0)
    .optional()
    .meta({
      description: `API 1.3, only with \`count=true\`: how many records match the filters (all pages). Exact up to ${TOTAL_EXACT_UP_TO}; past that it is ${TOTAL_EXACT_UP_TO} and \`totalExact\` is false.`,
    }),
  totalExact: z.boolean().optional().meta({
    description: 'API 1.3, only with `count=true`: whether `total` is exact (true) or a lower bound (false).',
  }),
});

/**
 * A record as search returns it: exactly the Doctor, plus `distanceMeters` when the search
 * used `near`. Without `near` it is the Doctor byte for byte.
 */
const distanceMeters = z.number().int().min(0).optional().meta({
  description:
    'API 1.2, only when the search used `near`: the distance from that point to `location`, in whole metres (great-circle)',
});

export const searchResultSchema = doctorSchema.extend({ distanceMeters });
export type SearchResult = z.output<typeof searchResultSchema>;

/** A search record with only the fields named in `fields` (`distanceMeters` is not a record field: it stays). */
export const selectedSearchResultSchema = selectedDoctorSchema.extend({ distanceMeters });

/** One page of search results, as served by `GET /api/v1/doctors` and the MCP tool `search_doctors`. */
/** A page's `suggestions`, the same in both page shapes. */
const suggestionsField = searchSuggestionsSchema.optional().meta({
  description:
    'API 1.4, only with `suggestions=true`: what to try when the first page is empty (see "Zero results"); empty otherwise',
});

export const doctorPageSchema = z.strictObject({
  doctors: z.array(searchResultSchema).max(LIMIT_MAX),
  page: pageInfoSchema,
  facets: facetsSchema.optional(),
  suggestions: suggestionsField,
});
export type DoctorPage = z.output<typeof doctorPageSchema>;

/** A page of search results shaped by `fields`. */
export const selectedDoctorPageSchema = z.strictObject({
  doctors: z.array(selectedSearchResultSchema).max(LIMIT_MAX),
  page: pageInfoSchema,
  facets: facetsSchema.optional(),
  suggestions: suggestionsField,
});

/** A page of records of any shape (record-shape.ts): the Doctor's (DoctorPage) or a selection's. */
export type RecordPage<Record> = {
  doctors: Array<Record & { distanceMeters?: number }>;
  page: DoctorPage['page'];
  /** Only when the search asked for facets (facets.ts). */
  facets?: Facets;
  /** Only when the search asked for suggestions (search-suggestions.ts). */
  suggestions?: SearchSuggestion[];
};
