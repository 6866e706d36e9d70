import { z } from 'zod';
import {
  COUNTRY_CODES,
  datasetCoverageSchema,
  datasetsPageSchema,
  datasetsParamsSchema,
} from '@directory/domain';

// The domain's schemas, registered as OpenAPI components.
export const datasetCoverageComponent = datasetCoverageSchema.meta({
  id: 'DatasetCoverage',
  description: 'One dataset: its served records and how many a crawl observed within the window',
});

export const datasetListComponent = datasetsPageSchema
  .extend({ datasets: z.array(datasetCoverageComponent).max(COUNTRY_CODES.length) })
  .meta({
    id: 'DatasetList',
    description:
      'Every dataset with served records (or the one asked for), in code order, with its 90-day coverage.',
  });

// Documentation only: the route validates with the domain's parseDatasetsParams, which also rejects
// unknown and repeated parameters and reports every bad one at once.
export const datasetsQuerySchema = datasetsParamsSchema;
