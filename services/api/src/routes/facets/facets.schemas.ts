import { z } from 'zod';
import { facetNameSchema, facetValuesPageSchema, facetValuesParamsSchema } from '@directory/domain';

// Documentation only: the route validates with the domain's parseFacetValuesParams, which also rejects
// unknown and repeated parameters and reports every bad one at once.
export const facetValuesQuerySchema = facetValuesParamsSchema;
export const facetParamsSchema = z.object({ name: facetNameSchema });
export const facetValuesResponseSchema = facetValuesPageSchema;
