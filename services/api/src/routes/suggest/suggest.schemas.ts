import { z } from 'zod';
import {
  SUGGEST_LIMIT_MAX,
  citySuggestionSchema,
  doctorSuggestionSchema,
  specialtySuggestionSchema,
  suggestPageSchema,
  suggestParamsSchema,
} from '@directory/domain';

// The domain's schemas, registered as OpenAPI components. Open objects: clients ignore fields they do
// not know (docs/api.md, "Compatibility"); the domain builds each suggestion from its own fields only.

const specialtySuggestionComponent = specialtySuggestionSchema.meta({
  id: 'SpecialtySuggestion',
  description: 'A specialty code whose label or synonym matches: search with `specialty=<code>`',
});

const citySuggestionComponent = citySuggestionSchema.meta({
  id: 'CitySuggestion',
  description: 'A city of the dataset whose name matches: search with `city=<citySlug>`',
});

const doctorSuggestionComponent = doctorSuggestionSchema.meta({
  id: 'DoctorSuggestion',
  description: 'A published record search’s `q` finds for the text: fetch it with `GET /api/v1/doctors/{id}`',
});

export const suggestPageComponent = suggestPageSchema
  .extend({
    suggestions: z
      .array(
        z.discriminatedUnion('type', [
          specialtySuggestionComponent,
          citySuggestionComponent,
          doctorSuggestionComponent,
        ]),
      )
      .max(SUGGEST_LIMIT_MAX),
  })
  .meta({
    id: 'SuggestionList',
    description: 'Specialties, then cities, then doctors, in the typeahead’s order',
    examples: [
      {
        suggestions: [
          { type: 'specialty', code: 'general-practice', label: 'General practice' },
          { type: 'city', citySlug: 'muenchen', name: 'München' },
          { type: 'doctor', id: 'ChIJ2eUgeAK6j4ARbn5u_wAGqWA', name: 'Praxis Dr. Müller', city: 'München' },
        ],
      },
    ],
  });

// Documentation only: the route validates with the domain's parseSuggestParams, which also rejects
// unknown and repeated parameters and reports every bad one at once.
export const suggestQuerySchema = suggestParamsSchema;
