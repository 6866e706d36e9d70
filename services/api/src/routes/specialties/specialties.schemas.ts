import { z } from 'zod';
import {
  SPECIALTY_CODES,
  specialtiesPageSchema,
  specialtiesParamsSchema,
  specialtyEntrySchema,
} from '@directory/domain';

// The domain's schemas (the MCP tool declares the same ones), registered as OpenAPI components.
export const specialtyComponent = specialtyEntrySchema.meta({
  id: 'Specialty',
  description: 'One code of the specialty vocabulary',
});

export const specialtyListComponent = specialtiesPageSchema
  .extend({ specialties: z.array(specialtyComponent).max(SPECIALTY_CODES.length) })
  .meta({
    id: 'SpecialtyList',
    description:
      'Without `country`: every code, in code order. With `country`: the codes of that dataset’s records, most records first, then code, each with its count.',
    examples: [
      {
        specialties: [
          { code: 'general-practice', label: 'Allgemeinmedizin', count: 5210 },
          { code: 'dentistry', label: 'Zahnmedizin', count: 2980 },
        ],
      },
    ],
  });

// Documentation only: the route validates with the domain's parseSpecialtiesParams, which also rejects
// unknown and repeated parameters and reports every bad one at once.
export const specialtiesQuerySchema = specialtiesParamsSchema;
