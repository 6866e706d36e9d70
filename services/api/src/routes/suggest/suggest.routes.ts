import { SUGGEST_DEFAULT_LIMIT, SUGGEST_LIMIT_MAX, parseSuggestParams } from '@directory/domain';
import { directoryListRoute } from '../keyed-get.js';
import { suggestPageComponent, suggestQuerySchema } from './suggest.schemas.js';

const SUGGEST_DESCRIPTION = `API 1.3. Typeahead for a search box: specialties, cities and doctors of one dataset matching the text typed so far, each telling what to call next.

- \`{type: "specialty", code, label}\`: search with \`specialty=<code>\`. Matches a label or synonym of the vocabulary in any language; only codes the dataset's records carry; \`label\` in \`lang\`.
- \`{type: "city", citySlug, name}\`: search with \`city=<citySlug>\`. Matches a word of the city name, or the slug's start.
- \`{type: "doctor", id, name, city}\`: \`GET /api/v1/doctors/{id}\`. The records search's \`q\` finds for the same text (names, city, type, specialties).

**Matching**: case- and accent-insensitive; the last typed word is a prefix, earlier words are whole. Specialties and cities must match the whole text at a word start.

**Order**: specialties (most records first, then code), then cities (most matching records first, then slug), then doctors (names starting with the text first, then name, then id). Specialties and cities take at most a quarter of \`limit\` each (at least one); doctors fill the rest, and slots they leave go to more specialties, then more cities. \`limit\`: 1 to ${SUGGEST_LIMIT_MAX}, default ${SUGGEST_DEFAULT_LIMIT}.

Unknown or repeated parameters are rejected with 400.`;

export const suggestRoutes = directoryListRoute({
  path: '/suggest',
  tag: 'suggest',
  operationId: 'suggest',
  summary: 'Typeahead: specialties, cities and doctors matching typed text',
  description: SUGGEST_DESCRIPTION,
  querystring: suggestQuerySchema,
  ok: suggestPageComponent,
  parse: parseSuggestParams,
  answer: (directory, params) => directory.suggest(params),
});
