import type { FastifyInstance } from 'fastify';
import { datasetOf, type Datasets } from '@directory/search';
import { FACET_LIMIT_DEFAULT, FACET_LIMIT_MAX, parseFacetValuesParams } from '@directory/domain';
import { keyedGetOptions } from '../keyed-get.js';
import { parsedQuery } from '../query.js';
import { facetParamsSchema, facetValuesQuerySchema, facetValuesResponseSchema } from './facets.schemas.js';

const FACET_VALUES_DESCRIPTION = `API 1.4. The values of one search facet in a whole dataset, for lists too long for a search's \`facetLimit\` (such as cities): each with \`count\`, how many records \`GET /api/v1/doctors?country=<country>&<name>=<value>\` finds, and for specialty, city and insurance its \`label\`.

**q** keeps the values whose value or label starts with it, case- and accent-insensitive (\`san seb\` finds \`san-sebastian\`, \`zahn\` finds \`dentistry\` with \`lang=de\`). Counts are always those of the whole dataset.

**Order**: most records first, then value. \`limit\` (1 to ${FACET_LIMIT_MAX}, default ${FACET_LIMIT_DEFAULT}) keeps the first ones.

An unknown facet name, unknown or repeated parameters are rejected with 400.`;

export function facetRoutes(
  app: FastifyInstance,
  options: { datasets: Datasets },
  done: (error?: Error) => void,
): void {
  app.get(
    '/facets/:name',
    keyedGetOptions({
      tag: 'facets',
      operationId: 'listFacetValues',
      summary: 'Values of one search facet in a dataset, matching a prefix, with counts',
      description: FACET_VALUES_DESCRIPTION,
      params: facetParamsSchema,
      querystring: facetValuesQuerySchema,
      ok: facetValuesResponseSchema,
    }),
    async (request) => {
      const { name } = request.params as { name: string };
      // The edge reads the clock: the openNow facet counts at the time this request is served.
      const requestTime = new Date();
      const params = parsedQuery(request, (raw) => parseFacetValuesParams(name, raw));
      return datasetOf(options.datasets, request).directory.listFacetValues(params, requestTime);
    },
  );
  done();
}
