import { z } from 'zod';
import { SLUG_PATTERN } from '../events/events.js';
import { GEO_RADIUS_MAX_M } from './geo.js';

/** One suggestion of an empty search (search-suggestions.ts), as the API and the MCP tool answer it. */

const resultCount = z
  .number()
  .int()
  .min(1)
  .meta({ description: 'How many records the search finds with this change (every other parameter kept)' });

export const searchSuggestionSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('query'),
      q: z.string().meta({ description: 'The q to send instead: each unknown word replaced by a known one' }),
      resultCount,
    }),
    z.strictObject({
      kind: z.literal('radius'),
      radius: z
        .number()
        .int()
        .min(1)
        .max(GEO_RADIUS_MAX_M)
        .meta({ description: 'The radius to send instead, in metres' }),
      resultCount,
    }),
    z.strictObject({
      kind: z.literal('city'),
      city: z.string().regex(SLUG_PATTERN).meta({ description: 'The city slug to send instead' }),
      name: z.string().nullable().meta({ description: "The city's most common published name" }),
      resultCount,
    }),
  ])
  .meta({
    id: 'SearchSuggestion',
    description:
      'A change of one parameter that makes an empty search find records (API 1.4, only with `suggestions=true`)',
  });
export type SearchSuggestion = z.output<typeof searchSuggestionSchema>;

/** At most one suggestion of each kind, in this order. */
export const searchSuggestionsSchema = z.array(searchSuggestionSchema).max(3);
