import { z } from 'zod';
import { CITIES_LIMIT_MAX, citiesParamsSchema } from '@directory/domain';

// Open response objects: clients ignore fields they do not know (docs/api.md, "Compatibility").

export const cityEntrySchema = z
  .looseObject({
    slug: z.string().meta({
      description: "The city slug, exactly as search's `city` parameter accepts it (and as in profile URLs)",
      examples: ['berlin', 'san-sebastian'],
    }),
    name: z
      .string()
      .nullable()
      .meta({
        description:
          "Display name: the most common published address city among the city's records; null when none publishes one",
        examples: ['Berlin', 'San Sebastián'],
      }),
    count: z.number().int().min(1).meta({ description: 'Published records in this city' }),
  })
  .meta({ id: 'City', description: 'One city of a dataset' });

export const citiesPageSchema = z
  .looseObject({
    cities: z.array(cityEntrySchema).max(CITIES_LIMIT_MAX),
  })
  .meta({ id: 'CityList', description: 'Cities of one dataset, most records first, then slug' });

// Documentation only: the route validates with the domain's parseCitiesParams, which also rejects
// unknown and repeated parameters and reports every bad one at once.
export const citiesQuerySchema = citiesParamsSchema;
