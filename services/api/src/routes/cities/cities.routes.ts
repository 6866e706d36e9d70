import { CITIES_DEFAULT_LIMIT, CITIES_LIMIT_MAX, parseCitiesParams } from '@directory/domain';
import { directoryListRoute } from '../keyed-get.js';
import { citiesPageSchema, citiesQuerySchema } from './cities.schemas.js';

const CITIES_DESCRIPTION = `API 1.2. The city slugs that search's \`city\` parameter accepts in one dataset, with a display name and the number of published records, so clients need not guess slugs.

**Order**: most records first, then slug. \`limit\` (1 to ${CITIES_LIMIT_MAX}, default ${CITIES_DEFAULT_LIMIT}) keeps the first ones.

**q** narrows the list to cities whose name or slug starts with it, case- and accent-insensitive (\`san seb\` finds \`san-sebastian\`, \`munc\` finds München); counts stay those of the whole city.

Unknown or repeated parameters are rejected with 400.`;

export const cityRoutes = directoryListRoute({
  path: '/cities',
  tag: 'cities',
  operationId: 'listCities',
  summary: 'City slugs of one dataset, with names and counts',
  description: CITIES_DESCRIPTION,
  querystring: citiesQuerySchema,
  ok: citiesPageSchema,
  parse: parseCitiesParams,
  answer: (directory, params) => directory.listCities(params),
});
