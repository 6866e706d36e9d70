import type { FastifyInstance } from 'fastify';
import { datasetOf, type Datasets } from '@directory/search';
import { COVERAGE_WINDOW_DAYS, parseDatasetsParams } from '@directory/domain';
import { keyedGetOptions } from '../keyed-get.js';
import { parsedQuery } from '../query.js';
import { datasetListComponent, datasetsQuerySchema } from './datasets.schemas.js';

const DATASETS_DESCRIPTION = `API 1.5. How fresh each dataset is: its served records, when a crawl last observed one of them (\`lastObservedAt\`), and how many were observed in the last ${COVERAGE_WINDOW_DAYS} days (\`observedInWindow\`, and \`coverage\` = \`observedInWindow\` ÷ \`records\`). A crawl that finds a record unchanged still observes it.

The window ends at \`asOf\`, the time of the request to the minute. Search's \`observedSince=<windowStart>\` finds exactly the records counted in \`observedInWindow\`.

**Without \`country\`**: every dataset with served records, in code order. **With \`country\`**: that dataset only (an empty list when it has no served records).

Unknown or repeated parameters are rejected with 400.`;

const MINUTE_MS = 60_000;

export function datasetRoutes(
  app: FastifyInstance,
  options: { datasets: Datasets },
  done: (error?: Error) => void,
): void {
  app.get(
    '/datasets',
    keyedGetOptions({
      tag: 'datasets',
      operationId: 'listDatasets',
      summary: 'Served records per dataset and their 90-day crawl coverage',
      description: DATASETS_DESCRIPTION,
      querystring: datasetsQuerySchema,
      ok: datasetListComponent,
    }),
    async (request) => {
      const params = parsedQuery(request, parseDatasetsParams);
      // The edge reads the clock, to the minute: the same answer (and one cached search) within a minute.
      const asOf = new Date(Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS);
      return datasetOf(options.datasets, request).directory.listDatasets(params, asOf);
    },
  );
  done();
}
